// Shared app state: router hook, status banner, performance metrics (read by the browser tests).
export const app = { route: () => {}, user: null };

export const metrics = (window.__kz = window.__kz || {}).metrics = { sendToFirstEvent: [], sendToFirstPaint: [], sendToHeaders: [], firstPaint: null, firstContentfulPaint: null, layoutShift: 0 };

let bannerTimer = 0;
export function setBanner(msg, kind = 'info', action) {
  const el = document.getElementById('banner');
  clearTimeout(bannerTimer);
  if (!msg) { el.hidden = true; el.replaceChildren(); return; }
  el.hidden = false; el.dataset.kind = kind;
  el.replaceChildren(document.createTextNode(msg));
  if (action) {
    const b = document.createElement('button');
    b.className = 'btn small'; b.type = 'button'; b.textContent = action.label; b.onclick = action.onClick;
    el.append(' ', b);
  }
}
