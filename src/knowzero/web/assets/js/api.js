import { lang, errorText } from './i18n.js';

// HTTP + SSE client for the KnowZero API. POST /v1/chat streams text/event-stream; EventSource
// cannot POST, so the stream is read with fetch + ReadableStream and parsed here.
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message || code || 'error');
    this.status = status; this.code = code; this.details = details;
  }
}

export const auth = {
  get key() { return localStorage.getItem('kz.key') || ''; },
  set key(v) { if (v) localStorage.setItem('kz.key', v); else localStorage.removeItem('kz.key'); },
  get user() { try { return JSON.parse(localStorage.getItem('kz.user') || 'null'); } catch { return null; } },
  set user(u) { if (u) localStorage.setItem('kz.user', JSON.stringify(u)); else localStorage.removeItem('kz.user'); },
};

// An anonymous browser keeps its own threads: a random client id, sent with every request.
export function clientId() {
  let id = localStorage.getItem('kz.client');
  if (!id) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem('kz.client', id);
  }
  return id;
}

function headers(extra = {}, key = auth.key) {
  const hd = { ...extra, 'X-Client-Id': clientId(), 'Accept-Language': lang() === 'zh' ? 'zh-CN,zh;q=0.9' : 'en' };
  if (key) hd.Authorization = 'Bearer ' + key;
  return hd;
}

async function parseError(res) {
  let body = null;
  try { body = await res.json(); } catch { /* not JSON */ }
  const e = (body && body.error) || {};
  const code = e.code || 'http_' + res.status;
  return new ApiError(res.status, code, errorText(code, e.message || res.statusText), e.details);
}

export async function api(path, { method = 'GET', body, key, signal } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method, signal,
      headers: headers(body !== undefined ? { 'Content-Type': 'application/json' } : {}, key ?? auth.key),
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', errorText('network', ''));
  }
  if (!res.ok) throw await parseError(res);
  return res.json();
}

// What anyone may know about the server (version, offline mode, limits): fetched once.
let settingsOnce = null;
export function publicSettings() {
  if (!settingsOnce) settingsOnce = api('/v1/settings', { key: '' }).catch(() => { settingsOnce = null; return {}; });
  return settingsOnce;
}

// Upload with progress (fetch has no upload progress; XHR does).
export function upload(files, { collection, domain, onProgress }) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    form.append('collection', collection || 'uploads');
    form.append('domain', domain || 'general');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/kb/upload');
    if (auth.key) xhr.setRequestHeader('Authorization', 'Bearer ' + auth.key);
    xhr.setRequestHeader('X-Client-Id', clientId());
    xhr.setRequestHeader('Accept-Language', lang() === 'zh' ? 'zh-CN,zh;q=0.9' : 'en');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total); };
    xhr.upload.onload = () => onProgress && onProgress(1, true);
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* ignore */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else { const e = (body && body.error) || {}; reject(new ApiError(xhr.status, e.code, errorText(e.code, e.message), e.details)); }
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', 'network'));
    xhr.send(form);
  });
}

// Parse one SSE block ("event: x\ndata: {...}") into {type, data}.
function parseBlock(block) {
  let type = 'message'; const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue; // comment / ping
    if (line.startsWith('event:')) type = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return null;
  let parsed;
  try { parsed = JSON.parse(data.join('\n')); } catch { parsed = { text: data.join('\n') }; }
  return { type, data: parsed };
}

// Start a turn. Calls onEvent({type, data}) per event; onOpen(threadId) when headers arrive.
// Resolves {threadId, ended: 'done'|'error'|'broken'}; rejects with ApiError for HTTP errors.
export async function streamChat(body, { onEvent, onOpen, signal } = {}) {
  let res;
  try {
    res = await fetch('/v1/chat', {
      method: 'POST', signal,
      headers: headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' }),
      body: JSON.stringify(body),
    });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw new ApiError(0, 'network', 'network');
  }
  if (!res.ok) throw await parseError(res);
  const threadId = res.headers.get('X-Thread-Id') || body.thread_id;
  if (onOpen) onOpen(threadId);
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let ended = 'broken';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, i); buf = buf.slice(i + 2);
        const ev = parseBlock(block);
        if (!ev) continue;
        if (ev.type === 'done') ended = 'done';
        if (ev.type === 'error' && ended !== 'done') ended = 'error';
        onEvent && onEvent(ev);
        // The server frees the thread before it sends ``done``: the turn is over now, not when the
        // connection closes (on a loaded server that can lag, and the composer would stay busy).
        if (ev.type === 'done') { reader.cancel().catch(() => {}); return { threadId, ended }; }
      }
    }
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    ended = ended === 'done' ? 'done' : 'broken';
  }
  return { threadId, ended };
}

export async function healthy() {
  try { const r = await fetch('/healthz', { cache: 'no-store' }); return r.ok; } catch { return false; }
}
