// KnowZero web UI entry: hash router, language switch, sign-in, connection banner.
import { h, clear, openDialog, toast } from './util.js';
import { api, auth, healthy, publicSettings } from './api.js';
import { t, lang, setLang, applyStatic } from './i18n.js';
import { app, setBanner, metrics } from './state.js';


const main = document.getElementById('main');
const sidebar = document.getElementById('sidebar');
const views = {
  chat: () => import('./chat.js').then((m) => m.renderChat),
  learn: () => import('./learn.js').then((m) => m.renderLearn),
  doc: () => import('./reader.js').then((m) => m.renderReader),
  kb: () => import('./kb.js').then((m) => m.renderKb),
  console: () => import('./console.js').then((m) => m.renderConsole),
  settings: () => import('./settings.js').then((m) => m.renderSettings),
};
let cleanup = null;

async function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path, query] = hash.split('?');
  const parts = path.split('/').filter(Boolean);
  const name = views[parts[0]] ? parts[0] : 'chat';
  document.querySelectorAll('[data-nav]').forEach((a) => {
    const on = a.dataset.nav === name || (name === 'doc' && a.dataset.nav === 'learn');
    if (on) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  document.body.dataset.view = name;
  closeMenu();
  if (cleanup) { try { cleanup(); } catch { /* ignore */ } cleanup = null; }
  try {
    const render = await views[name]();
    const ret = await render(main, sidebar, parts.slice(1), new URLSearchParams(query || ''));
    if (typeof ret === 'function') cleanup = ret;
  } catch (err) {
    console.warn(err);
    clear(main).append(h('div', { class: 'empty error', role: 'alert' }, h('h2', {}, t('error_title')), h('p', {}, err.message || String(err)),
      h('button', { class: 'btn', onclick: route }, t('retry'))));
  }
}
app.route = route;

function closeMenu() { document.body.classList.remove('menu-open'); document.getElementById('menu-btn').setAttribute('aria-expanded', 'false'); }
document.getElementById('menu-btn').addEventListener('click', () => {
  const open = !document.body.classList.contains('menu-open');
  document.body.classList.toggle('menu-open', open);
  document.getElementById('menu-btn').setAttribute('aria-expanded', String(open));
  if (open) sidebar.querySelector('a, button')?.focus();
});

// --- language -------------------------------------------------------------------------------
const langBtn = document.getElementById('lang-btn');
function paintLang() {
  langBtn.textContent = lang() === 'zh' ? 'EN' : '中文';
  langBtn.setAttribute('aria-label', lang() === 'zh' ? 'Switch to English' : '切换到中文');
  applyStatic();
  paintUser();
  paintTheme(); settingsLink.setAttribute('aria-label', t('nav_settings')); settingsLink.title = t('nav_settings');
}
langBtn.addEventListener('click', () => { setLang(lang() === 'zh' ? 'en' : 'zh'); paintLang(); route(); });

// --- sign in (paste an API key) -------------------------------------------------------------
const userBtn = document.getElementById('user-btn');
function paintUser() {
  const u = auth.user;
  userBtn.replaceChildren(u ? `${u.name || u.id} · ${t('role_' + u.role)}` : t('sign_in'));
  document.body.dataset.role = u ? u.role : 'anonymous';
}
// After signing in mid-conversation, the anonymous thread on screen becomes the user's.
async function claimCurrentThread(key) {
  const m = location.hash.match(/^#\/chat\/([^?]+)/);
  if (!m) return false;
  try { const r = await api(`/v1/threads/${m[1]}/claim`, { method: 'POST', key }); return r.claimed; } catch { return false; }
}
export function signInDialog() {
  const u = auth.user;
  const input = h('input', { id: 'api-key', type: 'password', autocomplete: 'off', autofocus: true, placeholder: 'kz-…', 'aria-describedby': 'key-help' });
  const demo = h('p', { class: 'muted small', id: 'key-demo', hidden: true }, t('api_key_demo'));
  const err = h('p', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'stack' },
    u ? h('p', {}, t('signed_in_as'), ' ', h('strong', {}, `${u.name || u.id} (${t('role_' + u.role)})`)) : null,
    h('label', { for: 'api-key' }, t('api_key')), input, h('p', { id: 'key-help', class: 'muted small' }, t('api_key_help')), demo, err,
    h('div', { class: 'row' }, h('button', { class: 'btn primary', type: 'submit' }, t('sign_in')),
      u ? h('button', { class: 'btn', type: 'button', id: 'sign-out', onclick: () => { auth.key = ''; auth.user = null; paintUser(); dlg.close(); toast(t('signed_out')); route(); } }, t('sign_out')) : null));
  const dlg = openDialog({ title: t('sign_in'), body: form, label: t('close') });
  publicSettings().then((st) => { if (st.demo_keys) { demo.hidden = false; input.placeholder = 'demo-alice'; } });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = input.value.trim();
    if (!key) { err.textContent = t('api_key_required'); return; }
    try {
      const me = await api('/v1/me', { key });
      if (me.role === 'anonymous') { err.textContent = t('bad_key'); return; }
      const claimed = await claimCurrentThread(key);
      auth.key = key; auth.user = { id: me.id, name: me.name || me.id, role: me.role };
      paintUser(); dlg.close(); toast(claimed ? t('thread_claimed') : t('signed_in_as') + ' ' + (me.name || me.id)); route();
    } catch (ex) { err.textContent = ex.status === 401 ? t('bad_key') : ex.message; }
  });
}
// A key saved by an older version (role guessed, no name): refresh who it is once.
if (auth.key) api('/v1/me').then((me) => { if (me.role !== 'anonymous') { auth.user = { id: me.id, name: me.name || me.id, role: me.role }; paintUser(); } }).catch(() => {});

// --- theme (light / dark / follow the system) -----------------------------------------------
const themeBtn = h('button', { class: 'chip-btn', id: 'theme-btn', type: 'button' });
function theme() { return localStorage.getItem('kz.theme') || 'auto'; }
function paintTheme() {
  const th = theme();
  if (th === 'auto') delete document.documentElement.dataset.theme; else document.documentElement.dataset.theme = th;
  const dark = th === 'dark' || (th === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  themeBtn.textContent = dark ? '☀' : '☾';
  themeBtn.setAttribute('aria-label', t('toggle_theme'));
  themeBtn.title = `${t('theme')}: ${t('theme_' + th)}`;
  themeBtn.setAttribute('aria-pressed', String(dark));
}
themeBtn.addEventListener('click', () => {
  const dark = document.documentElement.dataset.theme === 'dark' || (theme() === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  localStorage.setItem('kz.theme', dark ? 'light' : 'dark');
  paintTheme();
});
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paintTheme);
themeBtn.addEventListener('kz-theme', paintTheme);
const settingsLink = h('a', { class: 'chip-btn', href: '#/settings', id: 'settings-link', 'data-nav': 'settings', 'aria-label': t('nav_settings'), title: t('nav_settings') }, '⚙');
document.querySelector('.top-actions').prepend(themeBtn, settingsLink);
paintTheme();
userBtn.addEventListener('click', signInDialog);

// --- connection monitor ---------------------------------------------------------------------
let down = false;
async function checkHealth() {
  const ok = await healthy();
  if (!ok && !down) { down = true; setBanner(t('server_down_banner'), 'error', { label: t('retry'), onClick: checkHealth }); }
  else if (ok && down) { down = false; setBanner(null); toast(t('reconnected')); route(); }
  setTimeout(checkHealth, down ? 2000 : 15000);
}
window.addEventListener('online', checkHealth);

// --- performance ----------------------------------------------------------------------------
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.name === 'first-paint') metrics.firstPaint = e.startTime;
      if (e.name === 'first-contentful-paint') metrics.firstContentfulPaint = e.startTime;
    }
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) metrics.layoutShift = (metrics.layoutShift || 0) + e.value;
  }).observe({ type: 'layout-shift', buffered: true });
} catch { /* older browsers */ }

document.querySelector('.skip').addEventListener('click', (e) => { e.preventDefault(); (main.querySelector('#composer') || main).focus(); });
window.addEventListener('hashchange', route);
paintLang();
route();
setTimeout(checkHealth, 1000);
