/* The card editor (templates/data/_card_form_body.html): choosing another kind of card, skill or effect draws the
   form again with that kind's fields (the form's hidden "redraw" button; without JavaScript a button does it). The
   checks as you type are htmx (hx-post on the form). */
(function () {
  "use strict";
  function setUp() {
    var form = document.getElementById("card-form");
    if (!form) { return; }
    var redraw = form.querySelector("[data-redraw-button]");
    form.addEventListener("change", function (event) {
      if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-redraw") && redraw) {
        if (form.requestSubmit) { form.requestSubmit(redraw); } else { redraw.click(); }
      }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", setUp); } else { setUp(); }
})();
