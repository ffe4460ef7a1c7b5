// Follow a tournament until it is evaluated: reload while its status is pending.
// Without this script the page has a reload link.
(function () {
  "use strict";
  var status = document.querySelector("[data-follow]");
  if (!status) { return; }
  window.setTimeout(function () { window.location.reload(); }, parseInt(status.dataset.follow, 10) || 2000);
})();
