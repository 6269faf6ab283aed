// hookwise web console: pending permission requests and recent hook executions, live.
//
// Everything shown here comes from hooks (tool names, reasons, commands, stderr), so the DOM
// is built from <template> clones filled with textContent and attributes only: never
// innerHTML. The page learns that something changed from /api/console/events (a stream of
// cheap database fingerprints) and only then fetches the part that changed, because
// pending-permissions (50/min) and output-config (10/min) are rate-limited per session.
"use strict";

(() => {
  const TOKEN_KEY = "hookwise.console.token";
  const SESSION_ID = "console"; // X-Session-Id: the console's own rate-limit session
  const PERMISSIONS_MIN_INTERVAL_MS = 2000; // <= 30 fetches/min, leaving room for decisions
  const EXECUTIONS_MIN_INTERVAL_MS = 300;
  const CONFIG_MIN_INTERVAL_MS = 1000;
  const RETRY_MS = 3000;
  const EXECUTION_OVERLAP_MS = 10000; // refetch this far back: late commits, same-ms rows
  const MAX_EXECUTIONS = 50;
  const STALE_ITEM_MS = 8000; // a request resolved elsewhere keeps its error this long
  const RECONNECT_MIN_MS = 1000;
  const RECONNECT_MAX_MS = 15000;
  const DEFAULT_CONFIG = {
    exitCodeBehavior: { 0: "success", 2: "blocking_error", others: "non_blocking_error" },
    timeoutMs: { permissionRequest: 30000 },
    uiConfig: { keyboardNavigation: true, autoExpandHookBlocks: false, showHookExecutionTime: true },
  };

  const $ = (id) => document.getElementById(id);
  const field = (root, name) => root.querySelector(`[data-field="${name}"]`);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const state = {
    token: null,
    generation: 0, // bumped on sign-out: answers to older requests are dropped
    stream: null,
    last: null, // the last fingerprints seen on the event stream
    skew: 0, // server clock minus this browser's clock, ms
    ui: { ...DEFAULT_CONFIG.uiConfig },
    exitCodeBehavior: { ...DEFAULT_CONFIG.exitCodeBehavior },
    permissionTimeout: DEFAULT_CONFIG.timeoutMs.permissionRequest,
    permissions: new Map(), // id -> entry {data, el, busy, staleUntil}
    selected: null,
    executions: new Map(), // id -> entry {data, el}
    approvals: [], // pending approval requests of the relay, newest first
  };

  class HttpError extends Error {
    constructor(status, body, retryAfter) {
      super((body && body.message) || `HTTP ${status}`);
      this.status = status;
      this.body = body || {};
      this.retryAfter = retryAfter;
    }
  }

  // --- talking to the API -------------------------------------------------------------

  function authHeaders(extra) {
    const headers = new Headers(extra || {});
    headers.set("Authorization", `Bearer ${state.token}`);
    headers.set("X-Session-Id", SESSION_ID);
    return headers;
  }

  async function api(path, options = {}) {
    const generation = state.generation;
    const headers = authHeaders({ Accept: "application/json" });
    const init = { method: options.method || "GET", headers, cache: "no-store" };
    if (options.body !== undefined) {
      headers.set("Content-Type", "application/json");
      init.body = JSON.stringify(options.body);
    }
    const response = await fetch(path, init);
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    if (response.status === 401 && generation === state.generation) {
      signOut("That token was not accepted. Sign in again.");
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get("Retry-After")) || 0;
      throw new HttpError(response.status, body, retryAfter);
    }
    return body;
  }

  // One refresher per resource: coalesces requests, keeps a minimum interval between
  // fetches, and retries after a failure (honouring Retry-After on 429).
  function refresher(name, minInterval, load) {
    let dirty = false;
    let running = false;
    let timer = null;
    let notBefore = 0;

    function pump() {
      if (running || timer !== null || !dirty || state.token === null) return;
      const wait = notBefore - Date.now();
      if (wait > 0) {
        timer = setTimeout(() => {
          timer = null;
          pump();
        }, wait);
        return;
      }
      dirty = false;
      running = true;
      notBefore = Date.now() + minInterval;
      const generation = state.generation;
      load(generation)
        .then(() => clearNotice(name))
        .catch((err) => {
          if (generation !== state.generation || (err instanceof HttpError && err.status === 401)) {
            return;
          }
          dirty = true;
          const retryMs = err instanceof HttpError && err.retryAfter ? err.retryAfter * 1000 : RETRY_MS;
          notBefore = Date.now() + retryMs;
          const seconds = Math.ceil(retryMs / 1000);
          if (err instanceof HttpError && err.status === 429) {
            showNotice(name, `Rate limit reached while loading ${name}; next try in ${seconds} s.`);
          } else {
            showNotice(name, `Could not load ${name} (${err.message}); next try in ${seconds} s.`);
          }
        })
        .finally(() => {
          running = false;
          pump();
        });
    }

    return {
      request() {
        dirty = true;
        pump();
      },
      reset() {
        dirty = false;
        if (timer !== null) clearTimeout(timer);
        timer = null;
        notBefore = 0;
      },
    };
  }

  const configRefresher = refresher("the configuration", CONFIG_MIN_INTERVAL_MS, async (gen) => {
    const config = await api("/api/hook/output-config");
    if (gen === state.generation) applyConfig(config || {});
  });
  const permissionsRefresher = refresher("permission requests", PERMISSIONS_MIN_INTERVAL_MS, async (gen) => {
    const body = await api("/internal/hook/pending-permissions");
    if (gen === state.generation) renderPermissions((body && body.permissions) || []);
  });
  const executionsRefresher = refresher("hook executions", EXECUTIONS_MIN_INTERVAL_MS, async (gen) => {
    let newest = null;
    for (const entry of state.executions.values()) {
      newest = newest === null ? entry.data.timestamp : Math.max(newest, entry.data.timestamp);
    }
    let path = `/api/console/executions?limit=${MAX_EXECUTIONS}`;
    if (newest !== null) path += `&after=${Math.max(0, newest - EXECUTION_OVERLAP_MS)}`;
    const body = await api(path);
    if (gen === state.generation) mergeExecutions((body && body.executions) || []);
  });
  const approvalsRefresher = refresher("approval requests", PERMISSIONS_MIN_INTERVAL_MS, async (gen) => {
    const body = await api("/api/approvals?status=pending&limit=50");
    if (gen === state.generation) renderApprovals((body && body.approvals) || []);
  });
  const decisionsRefresher = refresher("guard decisions", EXECUTIONS_MIN_INTERVAL_MS, async (gen) => {
    const body = await api(`/api/console/decisions?limit=${MAX_EXECUTIONS}`);
    if (gen === state.generation) renderDecisions(body || {});
  });
  const refreshers = [
    configRefresher,
    permissionsRefresher,
    executionsRefresher,
    approvalsRefresher,
    decisionsRefresher,
  ];

  // --- the change stream --------------------------------------------------------------

  function onChanged(token) {
    if (typeof token.serverTime === "number") state.skew = token.serverTime - Date.now();
    const last = state.last || {};
    state.last = token;
    if (token.config !== last.config) configRefresher.request();
    if (token.permissions !== last.permissions) permissionsRefresher.request();
    if (token.executions !== last.executions) executionsRefresher.request();
    if (token.approvals !== last.approvals) approvalsRefresher.request();
    if (token.decisions !== last.decisions) decisionsRefresher.request();
  }

  function parseEvent(chunk) {
    const event = { type: "message", data: [] };
    for (const line of chunk.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "event") event.type = value;
      else if (name === "data") event.data.push(value);
    }
    return { type: event.type, data: event.data.join("\n") };
  }

  async function readEvents(response, generation) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done || generation !== state.generation) return;
      buffer = (buffer + value).replace(/\r\n?/g, "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const event = parseEvent(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
        if (event.type === "changed" && event.data) {
          setConnection("live");
          onChanged(JSON.parse(event.data));
        }
      }
    }
  }

  async function follow(generation) {
    let delay = RECONNECT_MIN_MS;
    while (generation === state.generation) {
      const controller = new AbortController();
      state.stream = controller;
      try {
        if (state.last === null) setConnection("connecting");
        const response = await fetch("/api/console/events", {
          headers: authHeaders({ Accept: "text/event-stream" }),
          cache: "no-store",
          signal: controller.signal,
        });
        if (response.status === 401) {
          if (generation === state.generation) signOut("That token was not accepted. Sign in again.");
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        delay = RECONNECT_MIN_MS;
        await readEvents(response, generation);
        await sleep(200); // the server ends each stream after a while: reconnect at once
      } catch (_) {
        if (generation !== state.generation) return;
        setConnection("offline", delay);
        await sleep(delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      }
    }
  }

  function setConnection(kind, retryMs) {
    const box = $("connection");
    box.dataset.state = kind;
    const text = {
      live: "Live",
      connecting: "Connecting…",
      offline: `Offline — retrying in ${Math.ceil((retryMs || 0) / 1000)} s`,
      signedout: "Not connected",
    }[kind];
    $("connection-text").textContent = text;
  }

  // --- notices and announcements ------------------------------------------------------

  const notices = new Map();

  function renderNotices() {
    const box = $("notice");
    const text = [...notices.values()].join(" ");
    box.textContent = text;
    box.hidden = text === "";
  }

  function showNotice(key, text) {
    notices.set(key, text);
    renderNotices();
  }

  function clearNotice(key) {
    if (notices.delete(key)) renderNotices();
  }

  function announce(text) {
    const box = $("announcer");
    box.textContent = "";
    setTimeout(() => {
      box.textContent = text;
    }, 50);
  }

  // --- time ---------------------------------------------------------------------------

  const serverNow = () => Date.now() + state.skew;

  function duration(ms) {
    const seconds = Math.max(0, Math.round(ms / 1000));
    if (seconds < 60) return `${seconds} s`;
    const minutes = Math.floor(seconds / 60);
    if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  function executionTime(ms) {
    if (ms < 1) return `${ms.toFixed(2)} ms`;
    if (ms < 1000) return `${Math.round(ms)} ms`;
    return `${(ms / 1000).toFixed(2)} s`;
  }

  function clock(ms) {
    return new Date(ms - state.skew).toLocaleTimeString([], { hour12: false });
  }

  // --- permission requests ------------------------------------------------------------

  function summarise(input) {
    if (input === null || typeof input !== "object") return String(input);
    const parts = Object.entries(input).map(([key, value]) => {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return `${key}: ${text}`;
    });
    const text = parts.join(" · ") || "(no input)";
    return text.length > 200 ? `${text.slice(0, 199)}…` : text;
  }

  function expiresAt(data) {
    return typeof data.expiresAt === "number" ? data.expiresAt : data.timestamp + state.permissionTimeout;
  }

  function buildPermission(data) {
    const el = $("perm-template").content.firstElementChild.cloneNode(true);
    el.dataset.permissionId = data.id;
    const tool = String(data.toolName);
    field(el, "tool").textContent = tool;
    const session = data.sessionId ? String(data.sessionId) : "";
    field(el, "session").textContent = session ? `session ${session}` : "";
    field(el, "session").hidden = session === "";
    field(el, "reason").textContent = String(data.reason || "(no reason given)");
    const summary = summarise(data.originalInput);
    field(el, "summary").textContent = summary;
    field(el, "summary").setAttribute("title", summary);
    field(el, "id").textContent = String(data.id);
    field(el, "session-full").textContent = session || "—";
    field(el, "created").textContent = new Date(data.timestamp - state.skew).toLocaleString();
    field(el, "expires").textContent = new Date(expiresAt(data) - state.skew).toLocaleString();
    field(el, "original").textContent = JSON.stringify(data.originalInput, null, 2);
    if (data.updatedInput !== undefined && data.updatedInput !== null) {
      field(el, "updated").textContent = JSON.stringify(data.updatedInput, null, 2);
      field(el, "updated-wrap").hidden = false;
    }
    for (const button of el.querySelectorAll("button[data-action]")) {
      const verb = button.dataset.action === "allow" ? "Approve" : "Deny";
      button.setAttribute("aria-label", `${verb} ${tool}`);
      button.addEventListener("click", () => decide(data.id, button.dataset.action));
    }
    el.addEventListener("focusin", () => select(data.id, false));
    el.addEventListener("click", (event) => {
      if (event.target === el || !event.target.closest("button, summary, input, details")) {
        select(data.id, true);
      }
    });
    const entry = { data, el, busy: false, staleUntil: 0 };
    updatePermissionTimes(entry, serverNow());
    return entry;
  }

  function updatePermissionTimes(entry, now) {
    const { data, el } = entry;
    field(el, "age").textContent = `${duration(now - data.timestamp)} ago`;
    const end = expiresAt(data);
    const left = end - now;
    const bar = field(el, "bar");
    const total = Math.max(1, end - data.timestamp);
    bar.value = Math.max(0, Math.min(1, left / total));
    const text = left > 0 ? `expires in ${duration(left)}` : "expired";
    field(el, "left").textContent = text;
    bar.setAttribute("aria-label", text);
    el.classList.toggle("urgent", left > 0 && left < 10000);
    el.classList.toggle("expired", left <= 0);
  }

  function orderedPermissionIds() {
    return [...state.permissions.values()]
      .sort((a, b) => a.data.timestamp - b.data.timestamp || (a.data.id < b.data.id ? -1 : 1))
      .map((entry) => entry.data.id);
  }

  function renderPermissions(list) {
    const listed = new Set(list.map((p) => p.id));
    const before = orderedPermissionIds();
    const previousIndex = before.indexOf(state.selected);
    const added = [];
    let hadFocus = false;
    for (const [id, entry] of state.permissions) {
      if (!listed.has(id) && !(entry.staleUntil > Date.now())) hadFocus = dropPermission(id) || hadFocus;
    }
    for (const data of list) {
      if (!state.permissions.has(data.id)) {
        state.permissions.set(data.id, buildPermission(data));
        added.push(data);
      }
    }
    placePermissions(previousIndex, hadFocus);
    if (added.length === 1) announce(`New permission request: ${added[0].toolName}`);
    else if (added.length > 1) announce(`${added.length} new permission requests`);
  }

  function dropPermission(id) {
    const entry = state.permissions.get(id);
    if (!entry) return false;
    const hadFocus = entry.el.contains(document.activeElement);
    entry.el.remove();
    state.permissions.delete(id);
    return hadFocus;
  }

  function placePermissions(previousIndex, focusSelection) {
    const list = $("perm-list");
    const ids = orderedPermissionIds();
    let anchor = list.firstElementChild;
    for (const id of ids) {
      const el = state.permissions.get(id).el;
      if (el === anchor) {
        anchor = anchor.nextElementSibling;
      } else {
        list.insertBefore(el, anchor);
      }
    }
    if (!state.permissions.has(state.selected)) {
      const index = Math.min(Math.max(previousIndex, 0), ids.length - 1);
      state.selected = ids.length ? ids[index] : null;
    }
    const count = ids.length;
    $("perm-count").textContent = String(count);
    $("perm-empty").hidden = count > 0;
    document.title = count ? `(${count}) hookwise console` : "hookwise console";
    paintSelection(focusSelection);
  }

  function paintSelection(focus) {
    for (const [id, entry] of state.permissions) {
      const current = id === state.selected;
      entry.el.tabIndex = current ? 0 : -1;
      if (current) entry.el.setAttribute("aria-current", "true");
      else entry.el.removeAttribute("aria-current");
    }
    if (focus && state.selected !== null && !$("dashboard").hidden) {
      const el = state.permissions.get(state.selected).el;
      if (!el.contains(document.activeElement)) el.focus();
    }
  }

  function select(id, focus) {
    if (!state.permissions.has(id)) return;
    state.selected = id;
    paintSelection(focus);
  }

  function removePermission(id) {
    const ids = orderedPermissionIds();
    const index = ids.indexOf(id);
    const hadFocus = dropPermission(id);
    if (state.selected === id) state.selected = null;
    placePermissions(index, hadFocus);
  }

  function showItemError(entry, text) {
    const box = field(entry.el, "error");
    box.textContent = text;
    box.hidden = false;
  }

  function conflictText(body) {
    const decision = body.decision ? ` (${body.decision})` : "";
    if (body.status === "expired") {
      return `This request expired before it was resolved; the fallback decision${decision} was applied.`;
    }
    return `This request was already resolved by someone else${decision}.`;
  }

  async function decide(id, decision) {
    const entry = state.permissions.get(id);
    if (!entry || entry.busy || entry.staleUntil) return;
    entry.busy = true;
    entry.el.setAttribute("aria-busy", "true");
    const buttons = entry.el.querySelectorAll("button[data-action]");
    for (const button of buttons) button.disabled = true;
    const reason = field(entry.el, "decision-reason").value.trim();
    const body = reason ? { decision, reason } : { decision };
    const tool = String(entry.data.toolName);
    try {
      await api(`/internal/hook/resolve-permission/${encodeURIComponent(id)}`, { method: "POST", body });
      announce(`${decision === "allow" ? "Approved" : "Denied"}: ${tool}`);
      removePermission(id);
    } catch (err) {
      entry.busy = false;
      entry.el.removeAttribute("aria-busy");
      if (!(err instanceof HttpError)) {
        for (const button of buttons) button.disabled = false;
        showItemError(entry, `Could not send the decision: ${err.message}`);
        return;
      }
      if (err.status === 401) return;
      if (err.status === 409 || err.status === 404) {
        entry.staleUntil = Date.now() + STALE_ITEM_MS;
        entry.el.classList.add("stale");
        showItemError(entry, err.status === 409 ? conflictText(err.body) : "This request no longer exists.");
        return;
      }
      for (const button of buttons) button.disabled = false;
      if (err.status === 429) {
        showItemError(entry, `Rate limit reached; try again in ${err.retryAfter || 60} s.`);
      } else {
        showItemError(entry, `The decision was not recorded: ${err.message}`);
      }
    }
  }

  function moveSelection(delta) {
    const ids = orderedPermissionIds();
    if (!ids.length) return;
    const inList = $("perm-list").contains(document.activeElement);
    let index = ids.indexOf(state.selected);
    if (index < 0) index = 0;
    else if (inList) index = Math.min(Math.max(index + delta, 0), ids.length - 1);
    select(ids[index], true);
  }

  function toggleDetails(open) {
    const entry = state.permissions.get(state.selected);
    if (!entry) return;
    const details = field(entry.el, "details");
    details.open = open === undefined ? !details.open : open;
  }

  function onKey(event) {
    if (!state.ui.keyboardNavigation || $("dashboard").hidden) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    const inList = $("perm-list").contains(target);
    if (!inList && target !== document.body && target !== document.documentElement) return;
    const onItem = inList && target.classList.contains("perm");
    switch (event.key) {
      case "ArrowDown":
      case "j":
        moveSelection(1);
        break;
      case "ArrowUp":
      case "k":
        moveSelection(-1);
        break;
      case "Home":
        select(orderedPermissionIds()[0], true);
        break;
      case "End":
        select(orderedPermissionIds().slice(-1)[0], true);
        break;
      case "a":
        if (state.selected !== null) decide(state.selected, "allow");
        break;
      case "d":
        if (state.selected !== null) decide(state.selected, "deny");
        break;
      case "Enter":
        if (!onItem && inList) return; // buttons and summaries keep their own Enter
        toggleDetails();
        break;
      case "Escape":
        toggleDetails(false);
        break;
      default:
        return;
    }
    event.preventDefault();
  }

  // --- approval requests (the relay) ---------------------------------------------------

  function renderApprovals(list) {
    state.approvals = list;
    const items = list.map((data) => {
      const el = $("apr-template").content.firstElementChild.cloneNode(true);
      el.dataset.approvalId = String(data.id);
      field(el, "tool").textContent = String(data.tool);
      field(el, "host").textContent = `${data.host} · session ${data.session_id}`;
      field(el, "reason").textContent = String(data.reason || "(no reason given)");
      const input = data.input;
      const summary = input && typeof input.command === "string" ? input.command : summarise(input);
      field(el, "summary").textContent = summary;
      field(el, "summary").setAttribute("title", summary);
      const link = field(el, "open");
      link.href = `/console/approvals/${encodeURIComponent(String(data.id))}`;
      link.setAttribute("aria-label", `Open the approval request for ${data.tool}`);
      return el;
    });
    $("apr-list").replaceChildren(...items);
    $("apr-count").textContent = String(list.length);
    $("apr-empty").hidden = list.length > 0;
    updateApprovalTimes(serverNow());
  }

  function updateApprovalTimes(now) {
    const byId = new Map(state.approvals.map((data) => [String(data.id), data]));
    for (const el of $("apr-list").children) {
      const data = byId.get(el.dataset.approvalId);
      if (!data) continue;
      const left = data.expires_at - now;
      field(el, "left").textContent = left > 0 ? `expires in ${duration(left)}` : "expired";
    }
  }

  // --- guard decisions (the policy hook's audit log) --------------------------------------

  const DECISION_CLASS = { deny: "exit-blocking", ask: "exit-warning", allow: "exit-ok", none: "exit-none" };

  function renderDecisions(body) {
    const list = Array.isArray(body.decisions) ? body.decisions : [];
    const items = list.map((data) => {
      const el = $("dec-template").content.firstElementChild.cloneNode(true);
      const decision = String(data.decision || "none");
      const badge = field(el, "decision");
      badge.textContent = decision;
      badge.classList.add(DECISION_CLASS[decision] || "exit-none");
      el.dataset.decision = decision;
      const source = String(data.source || "hook");
      field(el, "source").textContent = source === "hook" ? "policy hook" : source;
      field(el, "event").textContent = String(data.event || "");
      field(el, "tool").textContent = String(data.tool || "");
      const rule = data.rule ? `rule ${data.rule}` : "";
      const approval = data.approval ? `approval ${data.approval}` : "";
      field(el, "rule").textContent = [rule, approval].filter(Boolean).join(" · ");
      field(el, "host").textContent = String(data.hostTitle || data.host || "");
      field(el, "when").textContent = String(data.time || "");
      field(el, "command").textContent = data.command ? `$ ${data.command}` : "";
      field(el, "command").hidden = !data.command;
      field(el, "reason").textContent = String(data.reason || "");
      field(el, "reason").hidden = !data.reason;
      return el;
    });
    $("dec-list").replaceChildren(...items);
    $("dec-empty").hidden = items.length > 0;
    $("dec-log").textContent = body.log ? `from ${body.log}` : "";
  }

  // --- executions ---------------------------------------------------------------------

  function exitKind(code) {
    if (code === null || code === undefined) return { kind: "none", label: "no exit code (timed out or killed)" };
    const table = state.exitCodeBehavior;
    const behavior = table[String(code)] || table.others || "non_blocking_error";
    const kind = { success: "ok", blocking_error: "blocking" }[behavior] || "warning";
    return { kind, label: `exit code ${code}: ${behavior.replace(/_/g, " ")}` };
  }

  function paintExit(entry) {
    const box = field(entry.el, "exit");
    const { kind, label } = exitKind(entry.data.exitCode);
    box.className = `exit exit-${kind}`;
    box.setAttribute("title", label);
    box.setAttribute("aria-label", label);
  }

  function buildBlock(block) {
    const el = $("block-template").content.firstElementChild.cloneNode(true);
    const type = block && typeof block === "object" ? String(block.type || "block") : "block";
    el.classList.add(`block-${type === "warn" || type === "hook" ? type : "other"}`);
    field(el, "type").textContent = type;
    const hookEvent = block && block.hookEvent ? String(block.hookEvent) : "";
    field(el, "event").textContent = hookEvent;
    field(el, "event").hidden = hookEvent === "";
    let content = block && typeof block === "object" ? block.content : block;
    if (typeof content !== "string") content = JSON.stringify(content);
    field(el, "content").textContent = content === undefined ? "" : content;
    return el;
  }

  // What the host decided, in words: "denied (exit code 2)", "continued (JSON output)".
  const DECISIONS = {
    allow: "allowed",
    deny: "denied",
    ask: "asked the user",
    defer: "deferred",
    block: "blocked",
  };

  // What the row is: the service ran the command, or read the output of a hook its client ran.
  const KINDS = {
    execute: {
      label: "execute-with-output",
      title: "execute-with-output: the service ran this hook command and read its output",
    },
    parse: {
      label: "parse-output",
      title: "parse-output: the client ran the hook and sent its output; the service read it",
    },
  };

  // "denied (exit code 2)", "continued (JSON output)": what happened, and what decided it.
  // Rows recorded before the decision was kept say only whether the action went ahead.
  function outcomeLabel(data) {
    let verb = DECISIONS[data.decision];
    if (!verb && data.decision === "none") verb = data.shouldContinue ? "continued" : "session stopped";
    if (!verb) verb = data.shouldContinue ? "continued" : "blocked";
    const code = data.exitCode;
    let why;
    if (data.source === "json") why = "JSON output";
    else if (data.source === "exitcode") why = code === null || code === undefined ? "no exit code" : `exit code ${code}`;
    else why = String(data.source);
    return `${verb} (${why})`;
  }

  function buildExecution(data) {
    const el = $("exec-template").content.firstElementChild.cloneNode(true);
    el.dataset.executionId = data.id;
    const entry = { data, el };
    const code = data.exitCode;
    field(el, "exit").textContent = code === null || code === undefined ? "no exit" : `exit ${code}`;
    paintExit(entry);
    const kind = KINDS[data.kind] || KINDS.execute;
    field(el, "kind").textContent = kind.label;
    field(el, "kind").setAttribute("title", kind.title);
    field(el, "event").textContent = String(data.hookEvent);
    const host = data.hostTitle ? `read as ${data.hostTitle}` : "";
    field(el, "host").textContent = host;
    field(el, "host").hidden = host === "";
    const tool = data.toolName ? String(data.toolName) : "";
    field(el, "tool").textContent = tool;
    field(el, "tool").hidden = tool === "";
    const outcome = field(el, "outcome");
    outcome.textContent = outcomeLabel(data);
    outcome.classList.toggle("blocked", !data.shouldContinue);
    const time = field(el, "duration");
    time.textContent = executionTime(Number(data.executionTime) || 0);
    time.setAttribute("title", "hook execution time");
    time.hidden = !state.ui.showHookExecutionTime;
    const when = field(el, "when");
    when.textContent = clock(data.timestamp);
    when.setAttribute("datetime", new Date(data.timestamp - state.skew).toISOString());
    when.setAttribute("title", new Date(data.timestamp - state.skew).toLocaleString());
    const command = field(el, "command");
    if (data.kind === "parse") {
      command.textContent = "output sent by the client; the service ran no command";
      command.classList.add("none");
    } else {
      command.textContent = String(data.command);
      command.setAttribute("title", String(data.command));
    }
    const blocks = Array.isArray(data.messageBlocks) ? data.messageBlocks : [];
    const details = field(el, "blocks");
    if (blocks.length === 0) {
      details.hidden = true;
    } else {
      const counts = {};
      for (const block of blocks) {
        field(el, "block-list").appendChild(buildBlock(block));
        const type = block && block.type ? String(block.type) : "block";
        counts[type] = (counts[type] || 0) + 1;
      }
      const kinds = Object.entries(counts).map(([type, n]) => `${n} ${type}`).join(", ");
      const noun = blocks.length === 1 ? "message block" : "message blocks";
      field(el, "blocks-summary").textContent = `${blocks.length} ${noun} (${kinds})`;
      details.open = state.ui.autoExpandHookBlocks;
    }
    const label = [
      kind.label,
      data.hookEvent,
      tool,
      outcomeLabel(data),
      code === null || code === undefined ? "no exit" : `exit ${code}`,
    ];
    el.setAttribute("aria-label", label.filter(Boolean).join(", "));
    return entry;
  }

  function mergeExecutions(rows) {
    for (const data of rows) {
      if (!state.executions.has(data.id)) state.executions.set(data.id, buildExecution(data));
    }
    const ordered = [...state.executions.values()].sort(
      (a, b) => b.data.timestamp - a.data.timestamp || (a.data.id < b.data.id ? 1 : -1),
    );
    for (const entry of ordered.slice(MAX_EXECUTIONS)) {
      entry.el.remove();
      state.executions.delete(entry.data.id);
    }
    const list = $("exec-list");
    let anchor = list.firstElementChild;
    for (const entry of ordered.slice(0, MAX_EXECUTIONS)) {
      if (entry.el === anchor) anchor = anchor.nextElementSibling;
      else list.insertBefore(entry.el, anchor);
    }
    $("exec-empty").hidden = state.executions.size > 0;
  }

  // --- configuration ------------------------------------------------------------------

  function applyConfig(config) {
    const ui = { ...DEFAULT_CONFIG.uiConfig, ...(config.uiConfig || {}) };
    const expandChanged = ui.autoExpandHookBlocks !== state.ui.autoExpandHookBlocks;
    state.ui = ui;
    state.exitCodeBehavior = config.exitCodeBehavior || DEFAULT_CONFIG.exitCodeBehavior;
    const timeouts = config.timeoutMs || {};
    if (typeof timeouts.permissionRequest === "number") state.permissionTimeout = timeouts.permissionRequest;
    document.body.dataset.keyboard = ui.keyboardNavigation ? "on" : "off";
    $("keys-hint").hidden = !ui.keyboardNavigation;
    const list = $("perm-list");
    if (ui.keyboardNavigation) {
      list.setAttribute("aria-describedby", "keys-hint");
      list.setAttribute("aria-keyshortcuts", "ArrowUp ArrowDown J K A D Enter Escape");
    } else {
      list.removeAttribute("aria-describedby");
      list.removeAttribute("aria-keyshortcuts");
    }
    for (const entry of state.executions.values()) {
      field(entry.el, "duration").hidden = !ui.showHookExecutionTime;
      if (expandChanged) field(entry.el, "blocks").open = ui.autoExpandHookBlocks;
      paintExit(entry);
    }
    document.body.dataset.configLoaded = "true";
  }

  // --- signing in and out -------------------------------------------------------------

  // `#token=…` as `hookwise serve` prints it; taken out of the address bar (and so out of
  // the history and of bookmarks) at once. Percent-decoded, but a "+" stays a "+".
  function tokenFromFragment() {
    const parts = window.location.hash.replace(/^#/, "").split("&");
    const index = parts.findIndex((part) => part.startsWith("token="));
    if (index < 0) return null;
    const raw = parts[index].slice("token=".length);
    let token;
    try {
      token = decodeURIComponent(raw);
    } catch (_) {
      token = raw;
    }
    parts.splice(index, 1);
    const rest = parts.filter(Boolean).join("&");
    const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : "");
    window.history.replaceState(null, "", url);
    return token.trim() || null;
  }

  function showLogin(message) {
    $("dashboard").hidden = true;
    $("sign-out").hidden = true;
    $("login").hidden = false;
    $("login-error").textContent = message || "";
    setConnection("signedout");
    const input = $("token-input");
    input.value = "";
    input.setAttribute("aria-invalid", message ? "true" : "false");
    input.focus();
  }

  function resetData() {
    for (const refresher of refreshers) refresher.reset();
    state.permissions.clear();
    state.executions.clear();
    state.selected = null;
    state.last = null;
    notices.clear();
    renderNotices();
    $("perm-list").replaceChildren();
    $("exec-list").replaceChildren();
    $("apr-list").replaceChildren();
    $("dec-list").replaceChildren();
    $("dec-empty").hidden = false;
    state.approvals = [];
    $("apr-count").textContent = "0";
    $("apr-empty").hidden = false;
    $("perm-count").textContent = "0";
    $("perm-empty").hidden = false;
    $("exec-empty").hidden = false;
    document.title = "hookwise console";
  }

  function signIn(token) {
    state.generation += 1;
    state.token = token;
    window.sessionStorage.setItem(TOKEN_KEY, token);
    resetData();
    $("login").hidden = true;
    $("dashboard").hidden = false;
    $("sign-out").hidden = false;
    follow(state.generation);
  }

  function signOut(message) {
    state.generation += 1;
    state.token = null;
    window.sessionStorage.removeItem(TOKEN_KEY);
    if (state.stream) state.stream.abort();
    state.stream = null;
    resetData();
    showLogin(message);
  }

  function tick() {
    if (state.token === null) return;
    const now = serverNow();
    for (const [id, entry] of state.permissions) {
      if (entry.staleUntil && entry.staleUntil <= Date.now()) removePermission(id);
      else updatePermissionTimes(entry, now);
    }
    updateApprovalTimes(now);
  }

  function init() {
    $("login-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const token = $("token-input").value.trim();
      if (!token) {
        $("login-error").textContent = "Enter the API token.";
        $("token-input").setAttribute("aria-invalid", "true");
        return;
      }
      signIn(token);
    });
    $("sign-out").addEventListener("click", () => signOut(""));
    document.addEventListener("keydown", onKey);
    setInterval(tick, 1000);
    const token = tokenFromFragment() || window.sessionStorage.getItem(TOKEN_KEY);
    if (token) signIn(token);
    else showLogin("");
  }

  init();
})();
