// The signed-in person, in any page: who it is (GET /api/me), the CSRF token every
// change made with the session cookie carries, and the sign-in / sign-up form. A guest
// who signs in sends the seat tokens this browser saved, and those seats become theirs.
import { el } from "./common.js";

let me = null; // {name, kind, created, csrf} or null

export function current() { return me; }

export async function loadMe() {
  const res = await fetch("/api/me");
  me = res.ok ? await res.json() : null;
  return me;
}

/** A request made as the signed-in person: JSON both ways, the CSRF header added. */
export async function asMe(path, { method = "GET", body } = {}) {
  const headers = { "content-type": "application/json" };
  if (me) headers["x-skydeck-csrf"] = me.csrf;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = res.status === 204 ? {} : await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || `${res.status} ${res.statusText}`);
  return data;
}

/** Every seat token this browser remembers ([{match, tokens}]), to claim at sign-in. */
export function savedSeats() {
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("skydeck:tokens:")) continue;
    try {
      const tokens = JSON.parse(localStorage.getItem(key) || "[]");
      if (Array.isArray(tokens) && tokens.length) out.push({ match: key.slice("skydeck:tokens:".length), tokens });
    } catch { /* a damaged entry is skipped */ }
  }
  return out.slice(0, 200);
}

/** The account box: a sign-in / sign-up form, or who is signed in with its links.
 *  ``changed`` is called after signing in or out. */
export function mountAccount(box, changed) {
  const render = () => {
    box.replaceChildren();
    if (me) {
      box.append(
        el("span", { class: "who", id: "signed-in" }, "Signed in as ", el("a", { href: `/p/${encodeURIComponent(me.name)}` }, me.name)),
        " ",
        el("button", { class: "secondary", id: "sign-out", onclick: () => out("/api/session") }, "Sign out"),
        " ",
        el("button", { class: "secondary", id: "sign-out-all", onclick: () => out("/api/me/sessions") }, "Sign out everywhere"),
      );
      return;
    }
    const name = el("input", { type: "text", id: "account-name", placeholder: "name", autocomplete: "username", maxlength: 24, "aria-label": "name" });
    const pw = el("input", { type: "password", id: "account-password", placeholder: "password (8+ characters)", autocomplete: "current-password", "aria-label": "password" });
    const err = el("div", { class: "error", id: "account-error", hidden: true });
    const go = async (path) => {
      err.hidden = true;
      try {
        me = await asMe(path, { method: "POST", body: { name: name.value, password: pw.value, claim: savedSeats() } });
        render();
        changed?.();
      } catch (e) {
        err.textContent = e.message;
        err.hidden = false;
      }
    };
    box.append(
      el("form", { class: "account-form", onsubmit: (ev) => { ev.preventDefault(); go("/api/session"); } },
        name, " ", pw, " ",
        el("button", { type: "submit", id: "sign-in" }, "Sign in"), " ",
        el("button", { type: "button", class: "secondary", id: "sign-up", onclick: () => go("/api/accounts") }, "Sign up"),
        el("span", { class: "muted" }, " · or play as a guest: no account needed")),
      err,
    );
  };
  const out = async (path) => {
    try { await asMe(path, { method: "DELETE" }); } catch { /* signed out already */ }
    me = null;
    render();
    changed?.();
  };
  render();
}
