// Marks each box that scrolls sideways ([data-scroll-hint]) with which of its edges hide more, so the page can
// hint at it: a fade at that edge, and the box's written hint (the element its attribute names) shown only
// while the box is wider than the screen. Without it the boxes still scroll; they just give no hint.
(function () {
  function mark(box) {
    const beyond = box.scrollWidth - box.clientWidth;
    box.toggleAttribute("data-more-left", box.scrollLeft > 1);
    box.toggleAttribute("data-more-right", box.scrollLeft < beyond - 1);
    const hintId = box.getAttribute("data-scroll-hint");
    const hint = hintId && document.getElementById(hintId);
    if (hint) hint.hidden = beyond <= 1;
  }
  function markAll() {
    document.querySelectorAll("[data-scroll-hint]").forEach(mark);
  }
  document.addEventListener(
    "scroll",
    (event) => {
      if (event.target instanceof Element && event.target.hasAttribute("data-scroll-hint")) mark(event.target);
    },
    true,
  );
  window.addEventListener("resize", markAll);
  document.addEventListener("htmx:afterSettle", markAll);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markAll);
  else markAll();
})();
