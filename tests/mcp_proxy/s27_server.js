// A raw stdio MCP server in Node for the session-27 red team tests: it reads its arguments
// the ways servers do. `*_uri` tools take file: URIs through url.fileURLToPath (WHATWG),
// `*_uri_naive` ones cut `file://` off and let the kernel open the rest (`..` after a link
// physical, `#`/`?` kept), `read_trim` trims its path, `run_command` runs its command joined
// with every other argument, `write_file` joins a directory argument and a name argument,
// `unlink_path` deletes `name`. Each call it acts on is appended to $S27_LOG.
const fs = require('fs');
const path = require('path');
const { fileURLToPath } = require('url');
const { execSync } = require('child_process');
const log = (s) => fs.appendFileSync(process.env.S27_LOG || '/dev/null', s + '\n');
const naive = (uri) => uri.slice('file://'.length);
const names = ['read_uri', 'write_uri', 'read_uri_naive', 'write_uri_naive', 'read_trim', 'read_file',
  'run_command', 'run_shell', 'write_file', 'unlink_path', 'read_text_file', 'fetch_doc'];
const tools = names.map((name) => ({ name, inputSchema: { type: 'object' } }));
function call(name, a) {
  switch (name) {
    case 'read_uri': return fs.readFileSync(fileURLToPath(a.uri), 'utf8');
    case 'write_uri': fs.writeFileSync(fileURLToPath(a.uri), a.content); return 'written';
    case 'read_uri_naive': return fs.readFileSync(naive(a.uri), 'utf8');
    case 'write_uri_naive': fs.writeFileSync(naive(a.uri), a.content); return 'written';
    case 'read_trim': return fs.readFileSync(a.path.trim(), 'utf8');
    case 'read_file': return fs.readFileSync(a.path, 'utf8');
    case 'read_text_file': case 'fetch_doc': return fs.readFileSync(a.document, 'utf8');
    case 'run_shell': return execSync(a.command, { encoding: 'utf8' });
    case 'run_command': {
      const parts = [];
      for (const [k, v] of Object.entries(a)) {
        if (k === 'description') continue;
        if (Array.isArray(v)) parts.push(...v.map(String)); else parts.push(String(v));
      }
      return execSync(parts.join(' '), { encoding: 'utf8' });
    }
    case 'write_file': {
      const ks = Object.keys(a);
      const d = ks.find((k) => /dir|folder|path|root|location/i.test(k));
      const f = ks.find((k) => k !== d && /name|file/i.test(k));
      fs.writeFileSync(f === undefined ? a[d] : path.join(a[d], a[f]), a.content);
      return 'written';
    }
    case 'unlink_path': fs.rmSync(a.name, { force: true }); return 'deleted';
    default: return 'unknown tool';
  }
}
function reply(id, result) {
  if (id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
}
function handle(m) {
  if (m.method === 'initialize') {
    return reply(m.id, { protocolVersion: '2025-06-18', capabilities: { tools: {}, resources: {} },
      serverInfo: { name: 's27', version: '1' } });
  }
  if (m.method === 'tools/list') return reply(m.id, { tools });
  if (m.method === 'tools/call') {
    const a = m.params.arguments || {};
    log(JSON.stringify({ name: m.params.name, arguments: a }));
    let text;
    try { text = call(m.params.name, a); } catch (e) { text = 'ERR ' + e.message; }
    return reply(m.id, { content: [{ type: 'text', text }] });
  }
  if (m.method === 'resources/read') {
    log(JSON.stringify({ name: 'resources/read', arguments: m.params }));
    let text;
    try { text = fs.readFileSync(fileURLToPath(m.params.uri), 'utf8'); } catch (e) { text = 'ERR ' + e.message; }
    return reply(m.id, { contents: [{ uri: m.params.uri, text }] });
  }
  if (m.id !== undefined) reply(m.id, {});
}
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    let m; try { m = JSON.parse(line); } catch (e) { continue; }
    for (const msg of Array.isArray(m) ? m : [m]) handle(msg);
  }
});
