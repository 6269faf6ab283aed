// A stdio MCP server that reads tool arguments as Go servers do: encoding/json into typed
// structs (keys matched to fields ignoring case under Unicode folding, the last one wins),
// commands run with exec.Command, their argv, environment, stdin and directory taken from
// the call. The proxy's tests drive attacks through `hookwise mcp wrap` to it.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
)

type request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type shellArgs struct {
	Command    string            `json:"command"`
	Args       []string          `json:"args"`
	Env        map[string]string `json:"env"`
	Stdin      string            `json:"stdin"`
	WorkingDir string            `json:"working_dir"`
}

type moveArgs struct {
	Source      string `json:"source"`
	Destination string `json:"destination"`
}

func logCall(name string, args json.RawMessage) {
	path := os.Getenv("GO_SERVER_LOG")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	line, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	fmt.Fprintln(f, string(line))
}

func run(c call) string {
	logCall(c.Name, c.Arguments)
	switch c.Name {
	case "run_shell":
		var a shellArgs
		if err := json.Unmarshal(c.Arguments, &a); err != nil {
			return err.Error()
		}
		var cmd *exec.Cmd
		if len(a.Args) > 0 {
			cmd = exec.Command(a.Command, a.Args...)
		} else {
			cmd = exec.Command("sh", "-c", a.Command)
		}
		cmd.Env = os.Environ()
		for k, v := range a.Env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		if a.Stdin != "" {
			stdin, _ := cmd.StdinPipe()
			go func() { fmt.Fprint(stdin, a.Stdin); stdin.Close() }()
		}
		cmd.Dir = a.WorkingDir
		out, err := cmd.CombinedOutput()
		return fmt.Sprintf("%s %v", out, err)
	case "move_file":
		var a moveArgs
		if err := json.Unmarshal(c.Arguments, &a); err != nil {
			return err.Error()
		}
		return fmt.Sprint(os.Rename(a.Source, a.Destination))
	}
	return "unknown tool " + c.Name
}

func reply(id json.RawMessage, result any) {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
	fmt.Println(string(line))
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var req request
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue
		}
		switch req.Method {
		case "initialize":
			reply(req.ID, map[string]any{
				"protocolVersion": "2025-06-18",
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "go", "version": "1"},
			})
		case "tools/call":
			var c call
			_ = json.Unmarshal(req.Params, &c)
			text := run(c)
			reply(req.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}})
		default:
			reply(req.ID, map[string]any{})
		}
	}
}
