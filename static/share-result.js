// "Share the result" (issue 40): the game page's link to the result picture. Where
// the phone can share a file (Web Share, level 2), the picture goes to its share
// sheet (a chat, a message); elsewhere the link does what it does without this
// script: it saves the picture (its `download` attribute).
// The game page and the share page load this file (the deal form does not: its
// 60 KB budget).
(() => {
  const link = document.querySelector("[data-share-result]");
  if (!link || !navigator.canShare || !window.File) return;
  const name = link.getAttribute("download") || "result.png";
  // Asked once, with an empty file, before any click: may this phone share a picture?
  if (!navigator.canShare({ files: [new File([""], name, { type: "image/png" })] })) return;
  let picture = null;
  // The picture is fetched as the finger lands, so that the share sheet opens
  // while the tap still counts as the user's (browsers want a recent gesture).
  const fetchPicture = () => {
    picture = picture || fetch(link.href, { credentials: "omit" })
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(r.status))))
      .then((blob) => new File([blob], name, { type: "image/png" }));
    return picture;
  };
  link.addEventListener("pointerdown", fetchPicture);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    fetchPicture()
      .then((file) => navigator.share({ files: [file], title: link.dataset.title, text: link.dataset.text }))
      .catch((error) => {
        // Cancelled by the player: nothing to do. Anything else: save it instead.
        if (error && error.name === "AbortError") return;
        picture = null;
        const save = document.createElement("a");
        save.href = link.href;
        save.download = name;
        save.click();
      });
  });
})();

// The share page (templates/share.html): copy the spectator link, or hand it to the
// phone's share sheet.
document.querySelectorAll(".share-actions").forEach((box) => {
  const said = box.querySelector("[data-said]");
  const copy = box.querySelector("[data-copy]");
  const share = box.querySelector("[data-share]");
  if (navigator.clipboard && window.isSecureContext) {
    copy.addEventListener("click", () => {
      navigator.clipboard.writeText(box.dataset.url).then(() => { said.textContent = box.dataset.copied; }, () => {});
    });
  } else {
    copy.addEventListener("click", () => {  // plain HTTP: select the link, for the phone's own copy
      const link = document.getElementById("viewer-link");
      const range = document.createRange();
      range.selectNodeContents(link);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      try { if (document.execCommand("copy")) said.textContent = box.dataset.copied; } catch (e) { /* selected */ }
    });
  }
  if (navigator.share) {
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share({ title: box.dataset.title, url: box.dataset.url }).catch(() => {});
    });
  }
  box.hidden = false;
});
