// Knowledge base: drag-and-drop upload with progress, documents by collection, try a search.
import { h, clear, toast, openDialog } from './util.js';
import { confirmDelete } from './chat.js';
import { api, upload } from './api.js';
import { t, pageLabel } from './i18n.js';
import { openSource } from './source.js';

const DOMAINS = ['general', 'technical', 'hr', 'product', 'policy'];

export async function renderKb(main, sidebar) {
  const fileInput = h('input', { type: 'file', id: 'file-input', multiple: true, class: 'sr-only', accept: '.md,.txt,.html,.htm,.pdf,.docx,.csv' });
  const collection = h('input', { id: 'kb-collection', value: 'uploads', maxlength: 100 });
  const domain = h('select', { id: 'kb-domain' }, DOMAINS.map((d) => h('option', { value: d }, t('domain_' + d))));
  const zone = h('div', { class: 'dropzone', id: 'dropzone', tabindex: '0', role: 'button', 'aria-describedby': 'drop-help' },
    h('div', { class: 'drop-icon', 'aria-hidden': 'true' }, '⇪'), h('strong', {}, t('drop_files')), h('span', { class: 'muted small', id: 'drop-help' }, t('drop_help')));
  const uploads = h('ul', { class: 'uploads', id: 'uploads', 'aria-live': 'polite' });
  const files = h('div', { id: 'kb-files', 'aria-busy': 'true' });
  const q = h('input', { id: 'kb-query', placeholder: t('kb_query_placeholder'), 'aria-label': t('try_question'), maxlength: 2000 });
  const results = h('div', { id: 'kb-results', 'aria-live': 'polite' });
  const searchForm = h('form', { class: 'row', onsubmit: (e) => { e.preventDefault(); search(); } }, q, h('button', { class: 'btn primary', type: 'submit' }, t('search')));

  clear(main).append(h('div', { class: 'kb view' }, h('h1', {}, t('nav_kb')),
    h('div', { class: 'grid2' },
      h('section', { class: 'card' }, h('h2', {}, t('upload')),
        h('div', { class: 'row wrap' }, h('label', { for: 'kb-collection' }, t('collection')), collection, h('label', { for: 'kb-domain' }, t('domain')), domain),
        zone, fileInput, uploads),
      h('section', { class: 'card' }, h('h2', {}, t('try_question')), searchForm, results)),
    h('section', { class: 'card' }, h('h2', {}, t('kb_documents')), files)));
  clear(sidebar).append(h('div', { class: 'side-head' }, h('h2', {}, t('collections'))), h('ul', { class: 'plain', id: 'collections' }));

  zone.addEventListener('click', () => fileInput.click());
  zone.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fileInput.click(); } });
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => { e.preventDefault(); zone.classList.remove('over'); if (e.dataTransfer.files.length) send([...e.dataTransfer.files]); });
  fileInput.addEventListener('change', () => { if (fileInput.files.length) send([...fileInput.files]); fileInput.value = ''; });

  loadFiles();

  async function send(list) {
    const bar = h('span');
    const status = h('span', { class: 'muted small' }, t('uploading'));
    const li = h('li', { class: 'upload' }, h('strong', {}, list.map((f) => f.name).join(', ')),
      h('div', { class: 'progress', role: 'progressbar', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-label': t('progress') }, bar), status);
    uploads.prepend(li);
    const pb = li.querySelector('.progress');
    try {
      const res = await upload(list, {
        collection: collection.value.trim() || 'uploads', domain: domain.value,
        onProgress: (p, sent) => { const pct = Math.round(p * 90); bar.style.width = pct + '%'; pb.setAttribute('aria-valuenow', pct); if (sent) { status.textContent = t('ingesting'); li.classList.add('ingesting'); } },
      });
      bar.style.width = '100%'; pb.setAttribute('aria-valuenow', 100); li.classList.remove('ingesting');
      const parts = (res.results || []).map((r) => {
        const failed = (r.failed || []).length;
        const stored = r.submitted_as ? ` (${t('stored_as')} ${r.file})` : '';
        return failed ? `✗ ${r.file}: ${(r.failed[0] || {}).error || t('failed')}` : `✓ ${r.file}${stored}: ${r.chunks ?? 0} ${t('chunks')} · ${r.elapsed_ms ?? ''} ms${(r.unchanged || []).length ? ' · ' + t('unchanged') : ''}${(r.flags || []).includes('instructions') ? ' · ⚠ ' + t('flag_instructions') : ''}`;
      });
      status.textContent = parts.join(' · ');
      li.classList.add((res.results || []).some((r) => (r.failed || []).length) ? 'failed' : 'ok');
      loadFiles();
    } catch (err) {
      const clash = err.code === 'conflict' && (err.details || [])[0]; // a name that would replace another document
      li.classList.add('failed'); status.textContent = (err.status === 403 || err.status === 401) ? t('upload_forbidden')
        : clash ? t('upload_' + clash.rule).replace('{name}', clash.name).replace('{files}', (clash.files || []).join('、')) : err.message;
    }
  }

  // The list is rebuilt after every action and while vectors are computed: which collections are open
  // and which files are selected survive the rebuild (an action never collapses the list).
  const opened = new Map(); // collection → open?
  const selected = new Set(); // paths
  const bulkBar = h('div', { class: 'bulk-bar', id: 'kb-bulk', role: 'region', 'aria-label': t('bulk_actions'), hidden: true });
  files.before(bulkBar);

  async function loadFiles() {
    try {
      const res = await api('/v1/kb/files');
      const by = {};
      for (const f of res.files || []) (by[f.collection] = by[f.collection] || []).push(f);
      const known = new Set((res.files || []).map((f) => f.path || f.source));
      for (const p of [...selected]) if (!known.has(p)) selected.delete(p);
      files.replaceChildren(...Object.entries(by).map(([c, list]) => collectionBlock(c, list)));
      if (!(res.files || []).length) files.append(h('p', { class: 'empty' }, t('kb_empty')));
      paintBulk();
      // vectors are computed after ingest: refresh the statuses until every document is embedded
      clearTimeout(loadFiles.timer);
      if ((res.files || []).some((f) => f.status === 'searchable')) {
        loadFiles.timer = setTimeout(() => { if (document.body.contains(files)) loadFiles(); }, 3000);
      }
      const ul = document.getElementById('collections');
      ul && ul.replaceChildren(...Object.entries(res.collections || {}).map(([c, n]) => h('li', {}, `${c} `, h('span', { class: 'badge' }, n))));
    } catch (err) { files.replaceChildren(h('p', { class: 'bad' }, err.status === 0 ? t('server_down') : err.message)); }
    files.setAttribute('aria-busy', 'false');
  }

  // One collection: its documents, a select-all box, and for editors/admins one-click actions on the
  // whole collection (PATCH / DELETE /v1/kb/collections/{name}); the demo's delete says what it is.
  function collectionBlock(c, list) {
    const named = c !== 'null' && c !== 'undefined' && c;
    const open = opened.has(c) ? opened.get(c) : (c !== 'demo' && c !== 'default');
    const paths = list.map((f) => f.path || f.source);
    const all = h('input', { type: 'checkbox', class: 'select-all', 'data-action': 'select-all', 'aria-label': `${t('select_all')}: ${c}`, hidden: !canWrite() });
    all.addEventListener('change', () => { for (const p of paths) { if (all.checked) selected.add(p); else selected.delete(p); } syncBoxes(); paintBulk(); });
    const allOff = list.every((f) => f.enabled === false);
    const whole = (label, action, run, cls = 'btn small') => h('button', { class: cls, type: 'button', 'data-action': action, hidden: !canWrite() || !named, onclick: run }, label);
    const url = `/v1/kb/collections/${encodeURIComponent(c)}`;
    const toggle = whole(allOff ? t('collection_enable') : t('collection_disable'), allOff ? 'enable-collection' : 'disable-collection', (e) => busy(e.currentTarget, async () => {
      const r = await api(url, { method: 'PATCH', body: { enabled: allOff } });
      toast(`${allOff ? t('enabled_toast') : t('disabled_toast')} · ${r.files} ${t('files_n')}`);
    }));
    const demo = c === 'demo';
    const del = whole(demo ? t('remove_demo') : t('collection_delete'), demo ? 'remove-demo' : 'delete-collection', () => confirmAction({
      title: demo ? t('remove_demo') : `${t('collection_delete')}：${c}`,
      text: (demo ? t('remove_demo_confirm') : t('collection_delete_confirm')).replace('{n}', list.length).replace('{name}', c),
      yes: demo ? t('remove_demo') : t('delete'),
      run: async () => { const r = await api(url, { method: 'DELETE' }); opened.delete(c); toast(`${t('deleted')} · ${r.deleted} ${t('files_n')}`); await loadFiles(); },
    }), 'btn danger small');
    const details = h('details', { class: 'collection', open, dataset: { collection: c } },
      h('summary', {}, h('strong', {}, c), h('span', { class: 'muted small' }, ` · ${list.length}`),
        allOff ? h('span', { class: 'badge' }, t('kb_disabled')) : null,
        h('span', { class: 'collection-actions' }, toggle, del)),
      h('div', { class: 'table-wrap' }, h('table', {}, h('thead', {}, h('tr', {}, h('th', { class: 'check' }, all), h('th', {}, t('file')), h('th', {}, t('domain')), h('th', {}, t('chunks')), h('th', {}, t('kb_status')), h('th', {}, t('actions')))),
        h('tbody', {}, list.map((f) => fileRow(f))))));
    details.addEventListener('toggle', () => opened.set(c, details.open));
    syncBoxes(details);
    return details;
  }

  // Checkboxes follow the selection (also after a rebuild); a select-all box is checked when every
  // file of its collection is selected, mixed when some are.
  function syncBoxes(root = files) {
    for (const box of root.querySelectorAll('input.select-file')) box.checked = selected.has(box.dataset.path);
    for (const d of root.matches && root.matches('details.collection') ? [root] : root.querySelectorAll('details.collection')) {
      const boxes = [...d.querySelectorAll('input.select-file')];
      const n = boxes.filter((b) => b.checked).length;
      const all = d.querySelector('input.select-all');
      if (all) { all.checked = n > 0 && n === boxes.length; all.indeterminate = n > 0 && n < boxes.length; }
    }
  }

  // What to do with the selected files: disable, enable or delete them (one request per file).
  function paintBulk() {
    const n = selected.size;
    bulkBar.hidden = !n || !canWrite();
    if (bulkBar.hidden) { bulkBar.replaceChildren(); return; }
    const each = (label, action, run, cls = 'btn small') => h('button', { class: cls, type: 'button', 'data-action': action, onclick: run }, label);
    const apply = (fn) => async (e) => busy(e.currentTarget, async () => {
      const paths = [...selected];
      let done = 0;
      try { for (const p of paths) { await fn(p); selected.delete(p); done++; } } finally { if (done) toast(t('bulk_done').replace('{n}', done)); }
    });
    bulkBar.replaceChildren(h('strong', { id: 'kb-selected-count' }, t('n_selected').replace('{n}', n)),
      each(t('disable'), 'disable-selected', apply((path) => api('/v1/kb/files', { method: 'PATCH', body: { path, enabled: false } }))),
      each(t('enable'), 'enable-selected', apply((path) => api('/v1/kb/files', { method: 'PATCH', body: { path, enabled: true } }))),
      each(t('delete'), 'delete-selected', () => confirmAction({
        title: `${t('delete')}：${t('n_selected').replace('{n}', n)}`, text: t('delete_confirm'), yes: t('delete'),
        run: async () => {
          let done = 0;
          try { for (const path of [...selected]) { await api(`/v1/kb/files?path=${encodeURIComponent(path)}`, { method: 'DELETE' }); selected.delete(path); done++; } }
          finally { toast(t('bulk_done').replace('{n}', done)); await loadFiles(); }
        },
      }), 'btn danger small'),
      each(t('clear_selection'), 'clear-selection', () => { selected.clear(); syncBoxes(); paintBulk(); }, 'btn small'));
  }

  // Run an action from a button: disabled while it runs, the list reloaded after (kept expanded).
  async function busy(btn, run) {
    btn.disabled = true;
    try { await run(); } catch (err) { toast(err.message, 'error'); } finally { btn.disabled = false; await loadFiles(); }
  }

  function confirmAction({ title, text, yes, run }) {
    const err = h('p', { class: 'form-error', role: 'alert' });
    const ok = h('button', { class: 'btn danger', type: 'button', id: 'confirm-action', autofocus: true }, yes);
    const no = h('button', { class: 'btn', type: 'button' }, t('cancel'));
    const dlg = openDialog({ title, body: h('div', { class: 'stack' }, h('p', {}, text), err, h('div', { class: 'row' }, ok, no)), label: t('close') });
    no.onclick = () => dlg.close();
    ok.onclick = async () => { ok.disabled = true; try { await run(); dlg.close(); } catch (ex) { err.textContent = ex.message; ok.disabled = false; } };
  }

  // One document: status (issue 11's ingest status when the server reports it), chunk view, and for editors
  // and admins re-index, enable/disable (a disabled document is kept but never retrieved or cited) and delete.
  function fileRow(f) {
    const path = f.path || f.source;
    const status = f.status || (f.chunks ? 'indexed' : '');
    const box = h('input', { type: 'checkbox', class: 'select-file', 'data-path': path, 'aria-label': `${t('select_file')}: ${f.title || path}`, hidden: !canWrite(), checked: selected.has(path) });
    box.addEventListener('change', () => { if (box.checked) selected.add(path); else selected.delete(path); syncBoxes(box.closest('details')); paintBulk(); });
    const chunksBtn = h('button', { class: 'btn small', type: 'button', 'data-action': 'view-chunks', onclick: () => showChunks(f) }, t('view_chunks'));
    const del = h('button', { class: 'btn danger small', type: 'button', 'data-action': 'delete-file', hidden: !canWrite(),
      onclick: () => confirmDelete(f.title || path, async () => { await api(`/v1/kb/files?path=${encodeURIComponent(path)}`, { method: 'DELETE' }); toast(t('deleted')); loadFiles(); }) }, t('delete'));
    const enabled = f.enabled !== false;
    const act = (label, action, run) => h('button', { class: 'btn small', type: 'button', 'data-action': action, hidden: !canWrite() || f.status === 'failed' && !f.collection,
      onclick: async (e) => { e.target.disabled = true; try { await run(); loadFiles(); } catch (err) { toast(err.message, 'error'); e.target.disabled = false; } } }, label);
    const reindex = act(t('reindex'), 'reindex-file', async () => {
      const r = await api('/v1/kb/files/reindex', { method: 'POST', body: { path } });
      toast((r.failed || []).length ? `${t('failed')}: ${r.failed[0].error}` : `${t('reindexed')} · ${r.chunks} ${t('chunks')}`);
    });
    const toggle = act(enabled ? t('disable') : t('enable'), enabled ? 'disable-file' : 'enable-file', async () => {
      await api('/v1/kb/files', { method: 'PATCH', body: { path, enabled: !enabled } });
      toast(enabled ? t('disabled_toast') : t('enabled_toast'));
    });
    const flag = (f.flags || []).includes('instructions')
      ? h('span', { class: 'badge flag', role: 'note', title: (f.flagged_chunks || []).map((c) => c.text).join('\n') }, `⚠ ${t('flag_instructions')}`) : null;
    return h('tr', { dataset: { path, enabled: String(enabled) }, class: enabled ? '' : 'disabled' }, h('td', { class: 'check' }, box),
      h('td', {}, h('button', { class: 'linklike', type: 'button', onclick: () => openSource({ source: path, title: f.title || path }) }, f.title || path), flag, parseFacts(f)),
      h('td', {}, t('domain_' + f.domain) || f.domain || ''), h('td', {}, f.chunks ?? f.passages ?? ''),
      h('td', {}, h('span', { class: 'badge', 'data-status': status, title: f.error || '' }, t('status_' + status) || status),
        f.status === 'failed' && f.error ? h('div', { class: 'muted small', 'data-role': 'failure-reason' }, f.error) : null),
      h('td', {}, h('div', { class: 'kb-actions' }, chunksBtn, reindex, toggle, del)));
  }
  // What the parse found (GET /v1/kb/files): pages, structured tables, pages read by OCR, warnings.
  function parseFacts(f) {
    const bits = [];
    if (f.pages) bits.push(`${t('kb_pages')} ${f.pages}`);
    if (f.tables) bits.push(`${t('kb_tables')} ${f.tables}`);
    if ((f.ocr_pages || []).length) bits.push(`${t('kb_ocr_pages')} ${f.ocr_pages.length}`);
    const warn = (f.warnings || []).length
      ? h('span', { class: 'badge flag', role: 'note', title: f.warnings.join('\n') }, `⚠ ${t('kb_warnings')} ${f.warnings.length}`) : null;
    if (!bits.length && !warn) return null;
    return h('div', { class: 'muted small parse-facts' }, bits.join(' · '), warn ? ' ' : null, warn);
  }
  function canWrite() { return ['editor', 'admin'].includes(document.body.dataset.role); }
  async function showChunks(f) {
    const path = f.path || f.source;
    const list = h('ol', { class: 'chunk-list', id: 'chunk-list', 'aria-busy': 'true' });
    openDialog({ title: `${t('view_chunks')} · ${f.title || path}`, body: list, wide: true, label: t('close') });
    try {
      const r = await api(`/v1/kb/files/chunks?path=${encodeURIComponent(path)}`);
      list.replaceChildren(...r.chunks.map((c) => h('li', { dataset: { chunk: c.id } }, h('div', { class: 'muted small' }, `${c.section || ''}${c.page != null ? ' · ' + pageLabel({ ...c, path }) : ''} · [${c.start}:${c.end}]`), c.text)));
    } catch (err) { list.replaceChildren(h('li', { class: 'bad' }, err.message)); }
    list.setAttribute('aria-busy', 'false');
  }

  async function search() {
    const query = q.value.trim();
    if (!query) return;
    results.replaceChildren(h('div', { class: 'spinner' }));
    try {
      const r = await api('/v1/kb/search', { method: 'POST', body: { query, top_k: 8 } });
      const max = Math.max(...r.passages.map((p) => p.score || 0), 1e-9);
      results.replaceChildren(h('p', { class: 'muted small' }, `${t('domain')}: ${r.domain} · ${r.elapsed_ms} ms · ${r.passages.length} ${t('passages')}`),
        h('ol', { class: 'passages' }, r.passages.map((p) => h('li', { class: 'passage' },
          h('div', { class: 'row between' }, h('button', { class: 'linklike', type: 'button', onclick: () => openSource(p) }, p.title || p.source), h('span', { class: 'score', title: t('fused_score') }, (p.score || 0).toFixed(4))),
          h('div', { class: 'scorebar', 'aria-hidden': 'true' }, Object.entries(p.contributions || {}).map(([k, v]) => h('span', { class: 'c-' + k, style: { width: (100 * v / max) + '%' }, title: `${k} ${v}` }))),
          h('div', { class: 'muted small' }, Object.entries(p.contributions || {}).map(([k, v]) => `${t('ret_' + k) || k} ${(+v).toFixed(4)}`).join(' · '), p.section ? ` · ${p.section}` : ''),
          h('p', { class: 'snippet' }, (p.snippet || p.text || '').slice(0, 220))))));
      if (!r.passages.length) results.append(h('p', { class: 'empty' }, t('no_results')));
    } catch (err) { results.replaceChildren(h('p', { class: 'bad' }, err.message)); }
  }
}
