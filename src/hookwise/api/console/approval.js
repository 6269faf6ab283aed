// hookwise approval page: one request (/console/approvals/<id>) or the pending list
// (/console/approvals), for approvers on a phone.
//
// Sign-in once per device: the approver token is sent once to /api/console/session, which
// answers with an HttpOnly cookie (the page never stores the token) and a CSRF token that
// goes with every decision. Everything shown comes from the agent, so the DOM is filled
// with textContent only: never innerHTML.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const POLL_WAIT_S = 25;
  const LIST_REFRESH_MS = 3000;
  const REMEMBER_CHOICES = [5, 15, 30, 60, 240, 480, 1440];

  const state = { csrf: null, who: null, request: null, skew: 0, busy: false, timer: null };
  const match = /^\/console\/approvals(?:\/([^/]+))?\/?$/.exec(location.pathname);
  const approvalId = match && match[1] ? decodeURIComponent(match[1]) : null;

  class HttpError extends Error {
    constructor(status, body) {
      super((body && body.message) || `HTTP ${status}`);
      this.status = status;
      this.body = body || {};
    }
  }

  async function api(path, options = {}) {
    const headers = new Headers({ Accept: "application/json" });
    const init = { method: options.method || "GET", headers, cache: "no-store", credentials: "same-origin" };
    if (options.body !== undefined) {
      headers.set("Content-Type", "application/json");
      init.body = JSON.stringify(options.body);
    }
    if (init.method !== "GET" && state.csrf) headers.set("X-CSRF-Token", state.csrf);
    const response = await fetch(path, init);
    const date = Date.parse(response.headers.get("Date") || "");
    if (!Number.isNaN(date)) state.skew = date - Date.now();
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    if (!response.ok) throw new HttpError(response.status, body);
    return body;
  }

  function show(id) {
    for (const name of ["loading", "login", "list", "request"]) $(name).hidden = name !== id;
  }

  function signedIn(session) {
    state.csrf = session.csrf;
    state.who = session.name;
    $("who").textContent = `Signed in as ${session.name}`;
    $("who").hidden = false;
    $("sign-out").hidden = false;
  }

  function askToSignIn(message) {
    state.csrf = null;
    $("who").hidden = true;
    $("sign-out").hidden = true;
    $("login-error").textContent = message || "";
    show("login");
    $("token-input").focus();
  }

  async function start() {
    try {
      signedIn(await api("/api/console/session"));
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) return askToSignIn("");
      return fail(err);
    }
    return approvalId === null ? showList() : showRequest();
  }

  function fail(err) {
    show("request");
    $("error").textContent = `Could not load: ${err.message}`;
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const token = $("token-input").value.trim();
    if (!token) {
      $("login-error").textContent = "Paste the token first.";
      return;
    }
    try {
      const session = await api("/api/console/session", { method: "POST", body: { token } });
      $("token-input").value = "";
      signedIn(session);
      await (approvalId === null ? showList() : showRequest());
    } catch (err) {
      const text =
        err instanceof HttpError && err.status === 403
          ? "This token may not approve (an agent token cannot sign in)."
          : err instanceof HttpError && err.status === 401
            ? "That token was not accepted."
            : `Sign-in failed: ${err.message}`;
      $("login-error").textContent = text;
    }
  });

  $("sign-out").addEventListener("click", async () => {
    try {
      await api("/api/console/session", { method: "DELETE" });
    } catch (_) {
      // signed out either way
    }
    askToSignIn("Signed out.");
  });

  // --- one request -------------------------------------------------------------------

  const serverNow = () => Date.now() + state.skew;

  function duration(ms) {
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    if (seconds < 60) return `${seconds} s`;
    const minutes = Math.floor(seconds / 60);
    if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
    return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  }

  function commandText(request) {
    const input = request.input;
    if (input && typeof input === "object" && typeof input.command === "string") return input.command;
    return JSON.stringify(input, null, 2);
  }

  const STATUS_TEXT = {
    pending: "Waiting for a decision",
    allowed: "Approved",
    denied: "Denied",
    expired: "Expired: nobody decided in time",
    withdrawn: "Withdrawn: answered at the agent's own prompt",
  };

  function render(request) {
    state.request = request;
    show("request");
    document.title = `${request.tool} · approval · hookwise`;
    $("tool").textContent = String(request.tool);
    $("host").textContent = String(request.host);
    $("command").textContent = commandText(request);
    $("cwd").textContent = String(request.cwd || "—");
    $("session").textContent = String(request.session_id);
    $("rule").textContent = String(request.rule_id || "—");
    $("reason").textContent = String(request.reason || "—");
    $("input").textContent = JSON.stringify(request.input, null, 2);
    const status = String(request.status);
    $("status").dataset.status = status;
    let text = STATUS_TEXT[status] || status;
    const decision = request.decision;
    if (decision) {
      text += ` by ${decision.approver}`;
      if (decision.note) text += `: “${decision.note}”`;
      if (decision.remembered_from) text += " (remembered from an earlier approval)";
    }
    $("status").textContent = text;
    const pending = status === "pending";
    $("decide-form").hidden = !pending;
    const window = Number(request.remember_minutes) || 0;
    $("remember-row").hidden = !pending || window <= 0;
    if (window > 0 && $("remember-minutes").options.length === 0) {
      const choices = REMEMBER_CHOICES.filter((m) => m < window).concat([window]);
      for (const minutes of choices) {
        const option = document.createElement("option");
        option.value = String(minutes);
        option.textContent = String(minutes);
        $("remember-minutes").append(option);
      }
      $("remember-minutes").value = String(Math.min(window, 15));
    }
    tick();
  }

  function tick() {
    const request = state.request;
    if (!request) return;
    const left = request.expires_at - serverNow();
    if (request.status !== "pending") {
      $("countdown").textContent = new Date(request.expires_at - state.skew).toLocaleString();
    } else if (left > 0) {
      $("countdown").textContent = `in ${duration(left)}`;
    } else {
      $("countdown").textContent = "now";
      $("approve").disabled = true;
      $("deny").disabled = true;
    }
  }

  async function follow() {
    // Long-poll while pending: a decision made elsewhere, or the expiry, shows at once.
    while (state.request && state.request.status === "pending") {
      try {
        render(await api(`/api/approvals/${encodeURIComponent(approvalId)}?wait=${POLL_WAIT_S}`));
      } catch (err) {
        if (err instanceof HttpError && err.status === 401) return askToSignIn("Signed out; sign in again.");
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  }

  async function showRequest() {
    try {
      render(await api(`/api/approvals/${encodeURIComponent(approvalId)}`));
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) return askToSignIn("");
      if (err instanceof HttpError && err.status === 404) {
        show("request");
        $("decide-form").hidden = true;
        $("error").textContent = "There is no such approval request.";
        return undefined;
      }
      return fail(err);
    }
    if (state.timer === null) state.timer = setInterval(tick, 1000);
    follow();
    return undefined;
  }

  async function decide(decision) {
    const request = state.request;
    if (!request || state.busy) return;
    state.busy = true;
    $("approve").disabled = true;
    $("deny").disabled = true;
    $("error").textContent = "";
    const body = { decision, input_hash: request.input_hash };
    const note = $("note").value.trim();
    if (note) body.note = note;
    if (decision === "allow" && !$("remember-row").hidden && $("remember").checked) {
      body.remember_minutes = Number($("remember-minutes").value);
    }
    try {
      const decided = await api(`/api/approvals/${encodeURIComponent(request.id)}/decision`, {
        method: "POST",
        body,
      });
      render(decided);
      $("outcome").textContent = decision === "allow" ? "Approved. The agent goes ahead." : "Denied. The agent is told why.";
      $("outcome").hidden = false;
    } catch (err) {
      if (err instanceof HttpError && err.status === 401) return askToSignIn("Signed out; sign in again.");
      const kind = err instanceof HttpError ? err.body.error : "";
      const text = {
        expired: "Too late: this request has expired.",
        conflict: `Already decided elsewhere (${err.body && err.body.status}).`,
        hash_mismatch: "The request changed since this page loaded: nothing was decided.",
      }[kind];
      $("error").textContent = text || `The decision was not recorded: ${err.message}`;
      try {
        render(await api(`/api/approvals/${encodeURIComponent(request.id)}`));
      } catch (_) {
        // keep what is shown
      }
    } finally {
      state.busy = false;
      $("approve").disabled = false;
      $("deny").disabled = false;
      tick();
    }
    return undefined;
  }

  $("approve").addEventListener("click", () => decide("allow"));
  $("deny").addEventListener("click", () => decide("deny"));

  // --- the pending list ----------------------------------------------------------------

  async function showList() {
    show("list");
    for (;;) {
      let body;
      try {
        body = await api("/api/approvals?status=pending&limit=50");
      } catch (err) {
        if (err instanceof HttpError && err.status === 401) return askToSignIn("");
        body = null;
      }
      if (body) {
        const items = $("list-items");
        items.replaceChildren();
        for (const request of body.approvals) {
          const li = document.createElement("li");
          const link = document.createElement("a");
          link.href = `/console/approvals/${encodeURIComponent(request.id)}`;
          link.textContent = `${request.tool} on ${request.host}: ${commandText(request).slice(0, 160)}`;
          li.append(link);
          items.append(li);
        }
        $("list-count").textContent = String(body.approvals.length);
        $("list-empty").hidden = body.approvals.length > 0;
      }
      await new Promise((resolve) => setTimeout(resolve, LIST_REFRESH_MS));
    }
  }

  start();
})();
