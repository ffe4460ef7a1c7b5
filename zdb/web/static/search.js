// Results as you type: fetch the results fragment of the same search and show it in place.
// Without this script the search form works as a plain GET form.
(function () {
  "use strict";
  var input = document.querySelector("input[data-live]");
  var results = document.getElementById("results");
  if (!input || !results || !window.fetch) { return; }
  var timer = null;
  var asked = 0;
  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () {
      var q = input.value;
      var mine = ++asked;
      fetch(input.dataset.live + "?q=" + encodeURIComponent(q), { headers: { "Accept": "text/html" } })
        .then(function (answer) { return answer.ok ? answer.text() : null; })
        .then(function (html) {
          if (html === null || mine !== asked) { return; }
          results.innerHTML = html;
          window.history.replaceState(null, "", q ? "/?q=" + encodeURIComponent(q) : "/");
        })
        .catch(function () { /* the form still works */ });
    }, 150);
  });
})();
