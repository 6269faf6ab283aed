"""F5 probe: which tool names, taking the usual `command` / `path`+`content` keys, have the
proxy decide the shell / write rules on them. Each call carries `rm -r <victim>` as a
command, or the user policy as the path written; the server (srv.py) runs none of these
names, so only the proxy's answers and audit matter here.
Run: python3 redteam/s35/mcp/a05_tool_names.py"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from rt import Client, audit, sandbox, text  # noqa: E402

HERE = Path(__file__).parent
sb = sandbox("a05")
c = Client(sb, [sys.executable, str(HERE / "srv.py")])
victim = sb["proj"] / "victim"
SHELL = ["exec", "execute", "run", "sh", "bash", "terminal", "run_in_terminal", "shell_exec",
         "execute_command", "run_command", "cmd", "spawn", "start_process", "interact_with_process",
         "execute_code", "run_python", "eval", "run_script", "exec_command", "invoke", "container_exec",
         "ssh_exec", "execute_shell_command", "runCommand", "executeCommand", "run_terminal_cmd"]
WRITE = ["write_file", "create_file", "edit_block", "write_to_file", "append_file", "save_file",
         "put_file", "upload", "str_replace_editor", "apply_patch", "insert", "patch_file",
         "writeFile", "createFile", "saveFile", "overwrite", "update_file", "set_file_contents",
         "copy_file", "download_file", "fetch_to_file", "store"]
for name in SHELL:
    r = c.call(name, {"command": f"rm -r {victim}"})
    print(f"  shell {name:<24} -> {text(r)[:110]}")
for name in WRITE:
    r = c.call(name, {"path": str(sb["policy"]), "content": "version: 1\nrules: []\n"})
    print(f"  write {name:<24} -> {text(r)[:110]}")
c.close()
