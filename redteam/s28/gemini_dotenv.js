// Gemini CLI 0.61.0's dotenv parse, transcribed from its bundle
// (@google/gemini-cli/bundle/chunk-DZZAUXYI.js, `LINE` and `parse3`: dotenv 16).
// usage: node gemini_dotenv.js FILE  -> the parsed object as JSON
const fs = require("fs");
var LINE = /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/mg;
function parse3(src) {
  const obj = {};
  let lines = src.toString();
  lines = lines.replace(/\r\n?/mg, "\n");
  let match;
  while ((match = LINE.exec(lines)) != null) {
    const key = match[1];
    let value = match[2] || "";
    value = value.trim();
    const maybeQuote = value[0];
    value = value.replace(/^(['"`])([\s\S]*)\1$/mg, "$2");
    if (maybeQuote === '"') {
      value = value.replace(/\\n/g, "\n");
      value = value.replace(/\\r/g, "\r");
    }
    obj[key] = value;
  }
  return obj;
}
process.stdout.write(JSON.stringify(parse3(fs.readFileSync(process.argv[2]))));
