/* The list editor (templates/lists/edit.html). Vanilla JS on top of htmx; the page works without it (every
   button posts the form). What it adds:
   - the card search box: Enter adds the highlighted card (the first found unless ↑/↓ chose another), a number typed
     first adds that many ("3 補給");
   - quantities typed in place and warjack loadouts apply on change;
   - every click is sent, in order, even while an earlier one is still on its way (the form's requests queue);
   - focus stays on the control that was pressed, after htmx has replaced it;
   - a warning before leaving with unsaved changes (links, forms such as the language switch, Back, closing the tab),
     and the unsaved draft kept in this browser (localStorage, by list and version), offered on the next visit;
   - Escape hides a card's text shown on hover or focus (lists/_card_peek.html).
   The words it shows come from the page (translated by Django). */
(function () {
  "use strict";

  var form = document.getElementById("editor");
  if (!form) { return; }
  var search = document.getElementById("q");
  var target = document.getElementById("quick-target");
  var dialog = document.getElementById("leave-dialog");
  var offer = document.getElementById("draft-offer");
  var KEY_PREFIX = "hangar:draft:";

  var state = readState();
  var leaving = false;       // the user chose to leave: no more warnings
  var offerOpen = false;     // a kept draft is offered: do not overwrite it until the user answers
  var ops = [];              // the op of every click on a submit button, in order, for the requests that carry them
  var nextAddQty = null;     // how many the next "add" click adds (the search box's "3 補給")
  var focusRecord = null;    // the control that had focus when a request left
  var pendingEnter = null;   // Enter pressed before the results for the typed words arrived
  var active = 0;            // the highlighted picker row
  var pendingLeave = null;   // what to do once the user confirms leaving

  function readState() {
    var node = document.getElementById("editor-state");
    try { return node ? JSON.parse(node.textContent) : {}; } catch (error) { return {}; }
  }

  function field(name) { return form.elements.namedItem(name); }

  /* --- dirty: the draft differs from the saved list, or a field was changed and not sent yet ------------------- */

  function fieldChanged() {
    for (var i = 0; i < form.elements.length; i += 1) {
      var el = form.elements[i];
      if (!counts(el)) { continue; }
      if (el.name === "paste") { if (el.value.trim() !== "") { return true; } continue; }
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked !== el.defaultChecked) { return true; }
      } else if (el.tagName === "SELECT") {
        for (var j = 0; j < el.options.length; j += 1) {
          if (el.options[j].selected !== el.options[j].defaultSelected) { return true; }
        }
      } else if (el.value !== el.defaultValue) {
        return true;
      }
    }
    return false;
  }

  function dirty() { return !!state.dirty || fieldChanged(); }

  // the fields that are part of the work: not the picker's search and filters, not buttons or hidden fields
  function counts(el) {
    return !!el.name && el.type !== "hidden" && el.type !== "submit" && el.type !== "button" && !el.closest("#picker");
  }

  function acceptFieldsAsSaved() {
    // after a save, the list's own fields (outside the swapped parts) hold what is saved
    ["name", "format", "visibility", "notes"].forEach(function (name) {
      var el = field(name);
      if (!el) { return; }
      if (el.tagName === "SELECT") {
        for (var j = 0; j < el.options.length; j += 1) { el.options[j].defaultSelected = el.options[j].selected; }
      } else { el.defaultValue = el.value; }
    });
  }

  /* --- the draft kept in this browser ---------------------------------------------------------------------- */

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function draftKey(version) { return KEY_PREFIX + state.slug + ":v" + version; }

  function keptDrafts() {
    var store = storage(), found = [];
    if (!store || !state.slug) { return found; }
    var prefix = KEY_PREFIX + state.slug + ":v";
    for (var i = 0; i < store.length; i += 1) {
      var key = store.key(i);
      if (key && key.indexOf(prefix) === 0) {
        try { found.push({ key: key, draft: JSON.parse(store.getItem(key)) }); } catch (error) { store.removeItem(key); }
      }
    }
    found.sort(function (a, b) { return (b.draft.at || 0) - (a.draft.at || 0); });
    return found;
  }

  function currentDraft() {
    var fields = {};
    ["name", "format", "visibility", "notes"].forEach(function (name) { var el = field(name); if (el) { fields[name] = el.value; } });
    var paste = field("paste");
    return { document: field("document").value, version: field("version").value, fields: fields,
             paste: paste ? paste.value : "", at: Date.now() };
  }

  function keepDraft() {
    var store = storage();
    if (!store || offerOpen || !state.slug) { return; }
    var key = draftKey(field("version").value);
    try {
      if (dirty()) { store.setItem(key, JSON.stringify(currentDraft())); } else { store.removeItem(key); }
    } catch (error) { /* storage full or refused: the warning before leaving still protects the work */ }
  }

  function forgetDrafts() {
    var store = storage();
    if (!store) { return; }
    keptDrafts().forEach(function (item) { store.removeItem(item.key); });
  }

  function sameAsPage(draft) {
    var now = currentDraft();
    if (draft.document !== now.document || String(draft.version) !== String(now.version) || (draft.paste || "") !== now.paste) {
      return false;
    }
    return Object.keys(draft.fields || {}).every(function (name) { return draft.fields[name] === now.fields[name]; });
  }

  function offerKeptDraft() {
    if (!offer) { return; }
    var kept = keptDrafts();
    if (!kept.length) { return; }
    var newest = kept[0];
    if (sameAsPage(newest.draft)) { storage().removeItem(newest.key); return; }
    offerOpen = true;
    offer.querySelector("[data-draft-when]").textContent = new Date(newest.draft.at || Date.now()).toLocaleString(
      document.documentElement.lang || undefined);
    var other = String(newest.draft.version) !== String(state.version);
    var version = offer.querySelector("[data-draft-version]");
    version.hidden = !other;
    version.textContent = fill(version.getAttribute("data-template"), { version: newest.draft.version, current: state.version });
    offer.hidden = false;
    offer.querySelector("[data-draft-restore]").onclick = function () {
      var draft = newest.draft;
      field("document").value = draft.document;
      field("version").value = draft.version;
      Object.keys(draft.fields || {}).forEach(function (name) { var el = field(name); if (el) { el.value = draft.fields[name]; } });
      if (field("paste")) { field("paste").value = draft.paste || ""; }
      offerOpen = false;
      offer.hidden = true;
      submitForm();
      if (search) { search.focus(); }
    };
    offer.querySelector("[data-draft-discard]").onclick = function () {
      kept.forEach(function (item) { storage().removeItem(item.key); });
      offerOpen = false;
      offer.hidden = true;
      keepDraft();
    };
  }

  /* --- requests: every click's op, in order; how many an add adds ------------------------------------------- */

  function submitForm() {
    if (typeof form.requestSubmit === "function") { form.requestSubmit(); } else { form.dispatchEvent(new Event("submit", { cancelable: true })); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[name='op']");
    if (!button || button.form !== form || button.type !== "submit" || button.hasAttribute("hx-get")) { return; }
    ops.push({ op: button.value, qty: nextAddQty });
  }, true);

  form.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.elt !== form) { return; }
    var params = event.detail.parameters;
    // htmx sends the last button clicked, which is gone (swapped) or stale once requests queue up: the op is ours
    var item = ops.shift();
    if (item) { params.op = item.op; } else { delete params.op; }
    if (item && item.qty && item.qty > 1) { params.add_qty = String(item.qty); } else { delete params.add_qty; }
  });

  form.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.elt !== form) { return; }
    focusRecord = recordFocus();
    sent = snapshot();
  });

  /* A box ticked or a number typed while a request is on its way must survive that request's answer, which is drawn
     from what was sent: what changed since is put back after the swap (where the answer left that field as it was
     sent), and the next request in the queue, which reads the form then, sends it. */
  var sent = null, unsent = null;

  function controlKey(el) {
    return (el.type === "checkbox" || el.type === "radio") ? el.name + "=" + el.value : el.name;
  }

  function controlValue(el) {
    return (el.type === "checkbox" || el.type === "radio") ? String(el.checked) : el.value;
  }

  function snapshot() {
    var values = {};
    for (var i = 0; i < form.elements.length; i += 1) {
      var el = form.elements[i];
      if (!counts(el)) { continue; }
      values[controlKey(el)] = controlValue(el);
    }
    return values;
  }

  form.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.elt !== form) { return; }
    var now = snapshot();
    unsent = {};
    Object.keys(now).forEach(function (key) {
      if (sent && key in sent && now[key] !== sent[key]) { unsent[key] = { sent: sent[key], now: now[key] }; }
    });
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id === "editor-live") {
      state = readState();  // at once, not at settle (20 ms later): Back pressed in between must still warn
      restoreFocus();  // at once: a key pressed 20 ms later still lands
    }
    if (!unsent) { return; }
    var changes = unsent;
    unsent = null;
    for (var i = 0; i < form.elements.length; i += 1) {
      var el = form.elements[i];
      var change = el.name ? changes[controlKey(el)] : null;
      if (!change || controlValue(el) !== change.sent) { continue; }  // the answer changed it: the answer wins
      if (el.type === "checkbox" || el.type === "radio") { el.checked = change.now === "true"; } else { el.value = change.now; }
    }
  });

  // quantities typed in place and loadouts apply on change (Enter in a field submits by itself)
  // Submits are counted, not timed: a tick in the same millisecond as the previous tick's submit (a quick second
  // click) must still send itself; a submit after the change (Enter in a field) already carries it.
  var submits = 0;
  form.addEventListener("submit", function () { submits += 1; }, true);
  form.addEventListener("change", function (event) {
    var el = event.target;
    if (!el.matches("input.qty, .applies")) { return; }
    var seen = submits;
    window.setTimeout(function () { if (submits === seen) { submitForm(); } }, 0);
  });

  /* --- focus stays on the control pressed ----------------------------------------------------------------- */

  function recordFocus() {
    var el = document.activeElement;
    if (!el || !form.contains(el) || el === search) { return null; }
    var live = el.closest("#editor-live, #editor-side");
    if (!live) { return null; }
    var li = el.closest("li[data-card]");
    var section = el.closest("section[data-section]");
    var entries = section ? Array.prototype.slice.call(section.querySelectorAll("li[data-card]")) : [];
    return {
      id: el.id || null,
      op: el.name === "op" ? el.value : null,
      kind: el.name === "op" ? el.value.split(":")[0] : null,
      section: section ? section.getAttribute("data-section") : null,
      index: li ? entries.indexOf(li) : -1
    };
  }

  function restoreFocus() {
    var record = focusRecord;
    focusRecord = null;
    if (!record || (document.activeElement && document.activeElement !== document.body)) { return; }
    var el = null;
    if (record.id) { el = document.getElementById(record.id); }
    if (!el && record.op) {
      el = Array.prototype.find.call(form.querySelectorAll("button[name='op']"), function (b) { return b.value === record.op; }) || null;
    }
    if (!el && record.section) {
      // the entry is gone (its last copy removed): the entry now in its place, else the section's heading
      var section = form.querySelector("section[data-section='" + record.section + "']");
      if (section) {
        var rows = section.querySelectorAll("li[data-card]");
        var row = rows[Math.min(Math.max(record.index, 0), rows.length - 1)];
        el = row ? (row.querySelector("button[value^='" + (record.kind || "dec") + ":']") || row.querySelector("button, input")) : null;
        el = el || section.querySelector("h3");
      }
    }
    if (el) { el.focus({ preventScroll: true }); }
  }

  /* --- after each swap ----------------------------------------------------------------------------------- */

  document.addEventListener("htmx:afterSettle", function (event) {
    var swapped = event.target;  // the element swapped in (detail.elt is the one that asked)
    if (swapped.id === "picker-results") { resultsArrived(); return; }
    if (swapped.id !== "editor-live") { return; }
    state = readState();
    if (state.saved) { acceptFieldsAsSaved(); forgetDrafts(); }
    keepDraft();
    if (pendingLeave && state.saved && !dirty()) { var go = pendingLeave; pendingLeave = null; leave(go); }
    else if (pendingLeave && !state.saved) { pendingLeave = null; }
  });

  var keepTimer = null;
  form.addEventListener("input", function () {
    window.clearTimeout(keepTimer);
    keepTimer = window.setTimeout(keepDraft, 400);
  });

  /* --- the search box: Enter adds ------------------------------------------------------------------------- */

  function split(text) {
    var match = /^\s*([0-9\uff10-\uff19]{1,3})\s*[xX\u00d7]?\s+(\S.*)$/.exec(text || "");
    if (match) {
      var qty = parseInt(match[1].normalize("NFKC"), 10);
      if (qty >= 1 && qty <= 999) { return { qty: qty, words: match[2].trim() }; }
    }
    return { qty: 1, words: (text || "").trim() };
  }

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("#picker-results li[data-code]"));
  }

  function resultsFor() {
    var list = document.querySelector("#picker-results .picker-list");
    return list ? (list.getAttribute("data-q") || "").trim() : null;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (all, name) { return values[name] !== undefined ? values[name] : all; });
  }

  function highlight() {
    var all = rows();
    var wanted = split(search ? search.value : "");
    all.forEach(function (row, i) { row.classList.toggle("is-active", !!wanted.words && i === active); });
    if (!search || !target) { return; }
    if (!wanted.words) { target.textContent = ""; return; }
    if (resultsFor() !== wanted.words) { return; }
    var row = all[active];
    if (!row) { target.textContent = target.getAttribute("data-none"); return; }
    row.scrollIntoView({ block: "nearest" });
    target.textContent = fill(target.getAttribute("data-template"), {
      qty: wanted.qty, name: row.getAttribute("data-name"), section: row.getAttribute("data-section-label") });
  }

  function addActive(wanted) {
    var row = rows()[active];
    if (!row) { if (target) { target.textContent = target.getAttribute("data-none"); } return; }
    var button = row.querySelector("button[name='op']");
    nextAddQty = wanted.qty;
    button.click();
    nextAddQty = null;
    target.textContent = fill(target.getAttribute("data-added"), {
      qty: wanted.qty, name: row.getAttribute("data-name"), section: row.getAttribute("data-section-label") });
    search.value = "";
    active = 0;
    htmx.trigger(search, "search");  // the whole list again, ready for the next name
  }

  function resultsArrived() {
    active = 0;
    highlight();
    if (pendingEnter && search && split(search.value).words === resultsFor()) {
      var wanted = pendingEnter;
      pendingEnter = null;
      addActive(wanted);
    }
  }

  if (search) {
    search.setAttribute("aria-keyshortcuts", "Enter ArrowUp ArrowDown");
    search.addEventListener("keydown", function (event) {
      if (event.isComposing || event.keyCode === 229) { return; }  // Enter that ends an IME conversion
      var all = rows();
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!all.length) { return; }
        event.preventDefault();
        active = (active + (event.key === "ArrowDown" ? 1 : all.length - 1)) % all.length;
        highlight();
      } else if (event.key === "Enter") {
        event.preventDefault();
        var wanted = split(search.value);
        if (!wanted.words) { return; }
        if (resultsFor() === wanted.words) { addActive(wanted); return; }
        pendingEnter = wanted;  // the results for these words are not here yet: add when they arrive
        htmx.trigger(search, "search");
      }
    });
    search.addEventListener("input", function () { active = 0; pendingEnter = null; if (target) { target.textContent = ""; } });
  }

  /* --- skip links focus their target ---------------------------------------------------------------------- */

  document.querySelectorAll(".editor-skips a").forEach(function (link) {
    link.addEventListener("click", function () {
      var to = document.getElementById(link.getAttribute("href").slice(1));
      if (to) { window.setTimeout(function () { to.focus(); }, 0); }
    });
  });

  /* --- never lose work: warn before leaving -------------------------------------------------------------- */

  window.addEventListener("beforeunload", function (event) {
    if (leaving || !dirty()) { return; }
    keepDraft();
    event.preventDefault();
    event.returnValue = "";  // older Chromium needs it set to show its dialog
  });
  window.addEventListener("pagehide", function () { if (!leaving) { keepDraft(); } });

  function leave(go) {
    leaving = true;
    go();
  }

  function askBeforeLeaving(go) {
    keepDraft();
    if (!dialog || typeof dialog.showModal !== "function") {
      if (window.confirm(dialog ? dialog.querySelector("p").textContent : "")) { leave(go); }
      return;
    }
    pendingLeave = null;
    dialog.showModal();
    dialog.querySelector("[data-leave-stay]").onclick = function () { dialog.close(); };
    dialog.querySelector("[data-leave-go]").onclick = function () { dialog.close(); leave(go); };
    dialog.querySelector("[data-leave-save]").onclick = function () {
      dialog.close();
      pendingLeave = go;
      document.getElementById("save").click();
    };
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) { return; }
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target === "_blank" || link.hasAttribute("download")) { return; }
    var url = new URL(link.href, window.location.href);
    if (url.origin === window.location.origin && url.pathname === window.location.pathname && url.search === window.location.search && url.hash) {
      return;  // a place on this page
    }
    if (link.hasAttribute("data-discards")) { forgetDrafts(); leaving = true; return; }
    if (leaving || !dirty()) { return; }
    event.preventDefault();
    askBeforeLeaving(function () { window.location.href = link.href; });
  });

  document.addEventListener("submit", function (event) {
    var other = event.target;
    if (other === form || leaving || !dirty()) { return; }  // the language switch, Log out
    event.preventDefault();
    var submitter = event.submitter;  // the language switch's button carries the language: sent as the button would
    askBeforeLeaving(function () {
      if (submitter && submitter.name) {
        var field = document.createElement("input");
        field.type = "hidden";
        field.name = submitter.name;
        field.value = submitter.value;
        other.appendChild(field);
      }
      other.submit();
    });
  }, true);

  /* --- a card's text on hover, focus or tap (lists/_card_peek.html): Escape hides it until the pointer or the
     focus leaves that name ----------------------------------------------------------------------------------- */

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") { return; }
    document.querySelectorAll(".card-peek:hover, .card-peek:focus").forEach(function (peek) {
      peek.classList.add("peek-closed");
    });
  });
  ["mouseout", "focusout"].forEach(function (kind) {
    document.addEventListener(kind, function (event) {
      var peek = event.target.closest && event.target.closest(".card-peek");
      if (peek && !peek.matches(":hover, :focus")) { peek.classList.remove("peek-closed"); }
    });
  });

  offerKeptDraft();
  highlight();
})();
