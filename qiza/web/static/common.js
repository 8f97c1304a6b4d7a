/* Shared helpers: display modes and JSON requests. */
"use strict";
const qiza = {
  async api(method, path, body, headers) {
    const options = {method, headers: Object.assign({}, headers || {})};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const message = data && data.error ? data.error.message : `error ${response.status}`;
      const error = new Error(message);
      error.status = response.status;
      error.code = data && data.error ? data.error.code : "";
      throw error;
    }
    return data;
  },
  setupModes() {
    for (const [id, cls] of [["large-print", "large"], ["high-contrast", "contrast"]]) {
      const box = document.getElementById(id);
      if (!box) continue;
      box.checked = localStorage.getItem("qiza-mode-" + cls) === "1";
      document.body.classList.toggle(cls, box.checked);
      box.addEventListener("change", () => {
        localStorage.setItem("qiza-mode-" + cls, box.checked ? "1" : "0");
        document.body.classList.toggle(cls, box.checked);
      });
    }
  },
  seatKey(gameId) { return "qiza-seat-" + gameId; },
  inviteKey(gameId) { return "qiza-invite-" + gameId; },
};
document.addEventListener("DOMContentLoaded", () => qiza.setupModes());
