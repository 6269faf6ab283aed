// hookwise policy plugin for __HOST_TITLE__, written by `hookwise install __HOST__`
// (`hookwise uninstall __HOST__` removes it). Before every tool call it runs the hook command
// below with the call as JSON on stdin and obeys the answer: a deny throws (the tool does
// not run and the model reads the reason), a rewrite replaces the tool's arguments. It
// fails closed: when hookwise is missing, crashes, times out or answers anything but the
// JSON it expects, it throws too. Node built-ins only: nothing for the host to install.
import { spawn } from "node:child_process";

const HOST = "__HOST__";
const COMMAND = __COMMAND__;
const TIMEOUT_MS = __TIMEOUT_MS__;
const EVENT = "tool.execute.before";
const MAX_OUTPUT = 1024 * 1024;

// every failure's message ends with this (hookwise coverage knows such a call did not run)
const closed = (why) =>
  new Error(`hookwise: ${why} (the hookwise plugin fails closed: this tool call is blocked)`);

// MCP tools are named sanitize(server) + "_" + sanitize(tool) by the host; the policy
// names them mcp__server__tool, so the longest server prefix that fits is taken.
const sanitize = (name) => String(name).replace(/[^a-zA-Z0-9_-]/g, "_");
const mcpName = (tool, servers) => {
  let found = null;
  for (const server of servers) {
    const prefix = sanitize(server) + "_";
    if (tool.startsWith(prefix) && tool.length > prefix.length) {
      if (found === null || prefix.length > found.prefix.length) found = { server, prefix };
    }
  }
  return found === null ? null : `mcp__${found.server}__${tool.slice(found.prefix.length)}`;
};

const runHook = (payload, cwd) =>
  new Promise((resolve) => {
    let child;
    try {
      child = spawn("/bin/sh", ["-c", COMMAND], {
        cwd,
        env: process.env,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true, // its own process group: a timeout kills hookwise too
      });
    } catch (error) {
      resolve({ error: `cannot start the hook command: ${error && error.message}` });
      return;
    }
    const out = [];
    const err = [];
    let size = 0;
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const kill = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch (_) {
        try {
          child.kill("SIGKILL");
        } catch (_) {}
      }
    };
    const timer = setTimeout(() => {
      kill();
      finish({ error: `no answer within ${TIMEOUT_MS} ms` });
    }, TIMEOUT_MS);
    const collect = (into) => (chunk) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) {
        kill();
        finish({ error: "the hook printed more than 1 MiB" });
        return;
      }
      into.push(chunk);
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    child.on("error", (error) => finish({ error: `cannot run the hook command: ${error.message}` }));
    child.on("close", (code, signal) =>
      finish({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => {}); // a hook that exits without reading stdin
    child.stdin.end(JSON.stringify(payload));
  });

// The answer hookwise gives this plugin: exit 0 and one JSON object, always.
const verdict = (result) => {
  if (result.error) throw closed(result.error);
  if (result.signal) throw closed(`the hook was killed by ${result.signal}`);
  if (result.code !== 0) {
    // hookwise always exits 0 here, so anything else is a failure (hookwise missing: 2)
    throw closed(result.stderr.trim() || `the hook exited with code ${result.code}`);
  }
  let answer;
  try {
    answer = JSON.parse(result.stdout);
  } catch (_) {
    throw closed("the hook's answer is not JSON");
  }
  const specific = answer && typeof answer === "object" ? answer.hookSpecificOutput : undefined;
  if (!specific || typeof specific !== "object" || specific.hookEventName !== EVENT) {
    throw closed("the hook's answer is not one for tool.execute.before");
  }
  const decision = specific.permissionDecision;
  if (decision !== undefined && decision !== "allow" && decision !== "deny") {
    throw closed(`the hook answered ${JSON.stringify(decision)}, which this plugin cannot apply`);
  }
  const updated = specific.updatedInput;
  if (updated !== undefined && (updated === null || typeof updated !== "object" || Array.isArray(updated))) {
    throw closed("the hook's updatedInput is not an object");
  }
  return { decision, reason: specific.permissionDecisionReason, updated };
};

export const HookwisePolicy = async ({ directory }) => {
  let servers = [];
  return {
    config: async (config) => {
      const mcp = config && typeof config === "object" ? config.mcp : undefined;
      servers = mcp && typeof mcp === "object" ? Object.keys(mcp) : [];
    },
    [EVENT]: async (input, output) => {
      const tool = String(input && input.tool);
      const args = output && output.args && typeof output.args === "object" ? output.args : {};
      const mcp = mcpName(tool, servers);
      const payload = {
        hook_event_name: EVENT,
        session_id: String(input && input.sessionID),
        tool_use_id: String(input && input.callID),
        cwd: directory,
        tool_name: mcp === null ? tool : mcp,
        tool_input: args,
      };
      if (mcp !== null) payload.host_tool_name = tool;
      const answer = verdict(await runHook(payload, directory));
      if (answer.decision === "deny") {
        throw new Error(answer.reason || `hookwise: the policy denies ${tool}`);
      }
      if (answer.updated !== undefined) {
        for (const key of Object.keys(args)) delete args[key];
        Object.assign(args, answer.updated);
      }
    },
  };
};
