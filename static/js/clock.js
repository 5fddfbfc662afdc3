// Keeps the header's UTC clock ticking, starting from the server's time so a wrong local clock does not matter.
(function () {
  const el = document.getElementById("utc-clock");
  if (!el) return;
  const offset = new Date(el.getAttribute("datetime")).getTime() - Date.now();
  const days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n) => String(n).padStart(2, "0");
  function tick() {
    const d = new Date(Date.now() + offset);
    el.textContent = `${days[d.getUTCDay()]} ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ` +
      `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
  }
  tick();
  setInterval(tick, 1000);
})();
