// Drag and drop onto the upload form's file field; without this script the plain file input works.
(function () {
  "use strict";
  document.querySelectorAll("[data-dropzone]").forEach(function (zone) {
    var input = zone.querySelector("input[type=file]");
    var hint = zone.querySelector(".hint");
    if (!input) { return; }
    ["dragenter", "dragover"].forEach(function (name) {
      zone.addEventListener(name, function (event) { event.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        if (hint) { hint.textContent = event.dataTransfer.files[0].name; }
      }
    });
  });
})();
