/**
 * The memory pane: counts of the namespace (`memory.stats`, and the origin's use and quota from
 * `navigator.storage.estimate()`), export of the namespace as one JSON file (`memory.export`),
 * import of such a file into the empty namespace (`memory.import`), and clear (`memory.forget`),
 * which asks for a second click instead of a dialog.
 *
 * @module
 */
import type { App } from './app.js';
import { h, pane } from './dom.js';
import { formatBytes } from './format.js';

/** Mounts the memory pane into `root`. */
export function mountData(root: HTMLElement, app: App): void {
  const stats = h('p', { class: 'status', 'data-testid': 'memory-stats', 'aria-live': 'polite' }, '…');
  const exportButton = h('button', { type: 'button', 'data-testid': 'memory-export' }, 'Export memory');
  const importInput = h('input', { type: 'file', accept: '.json,application/json', 'data-testid': 'memory-import', 'aria-label': 'Memory file to import' });
  const clear = h('button', { type: 'button', class: 'danger', 'data-testid': 'memory-clear' }, 'Clear memory');
  const result = h('p', { class: 'status', 'data-testid': 'memory-result', 'aria-live': 'polite' });
  root.append(
    pane(
      'memory',
      'Memory',
      stats,
      h('div', { class: 'row' }, exportButton, clear),
      h('label', { class: 'file-label' }, 'Import a memory file (into an empty memory): ', importInput),
      result,
    ),
  );

  let armed = false;
  const disarm = (): void => {
    armed = false;
    clear.textContent = 'Clear memory';
  };

  const refresh = async (): Promise<void> => {
    const s = await app.memory.stats();
    const v = s.edgesByView;
    let text = `Namespace “${s.namespace}”: ${s.nodes} memories, ${s.edges} edges (semantic ${v.semantic}, temporal ${v.temporal}, causal ${v.causal}, entity ${v.entity}).`;
    const est = await navigator.storage?.estimate?.().catch(() => undefined);
    if (est?.usage !== undefined && est.quota !== undefined) text += ` This site uses ${formatBytes(est.usage)} of ${formatBytes(est.quota)}.`;
    stats.textContent = text;
    stats.dataset.nodes = String(s.nodes);
    stats.dataset.edges = String(s.edges);
  };
  const refreshLater = (): void => {
    refresh().catch((e: unknown) => app.report(e, 'Reading the counts failed'));
  };
  const setResult = (state: string, text: string): void => {
    result.dataset.state = state;
    result.textContent = text;
  };

  exportButton.addEventListener('click', () => {
    exportButton.disabled = true;
    app.memory
      .export()
      .then((data) => {
        const blob = new Blob([JSON.stringify(data)], { type: 'application/json' });
        const url = URL.createObjectURL(blob);
        const a = h('a', { href: url, download: `jev-mem-${data.namespace}-${data.exportedAt.slice(0, 10)}.json` });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
        setResult('exported', `Exported ${data.nodes.length} memories and ${data.edges.length} edges (${formatBytes(blob.size)}).`);
      })
      .catch((e: unknown) => app.report(e, 'Export failed'))
      .finally(() => {
        exportButton.disabled = false;
      });
  });

  importInput.addEventListener('change', () => {
    const f = importInput.files?.[0];
    if (f === undefined) return;
    setResult('importing', `Importing ${f.name}…`);
    f.text()
      .then((text) => app.memory.import(JSON.parse(text) as unknown, { namespace: app.settings.namespace }))
      .then((r) => {
        setResult('imported', `Imported ${r.nodes} memories and ${r.edges} edges into “${r.namespace}”.`);
        app.changed();
      })
      .catch((e: unknown) => {
        setResult('failed', 'Import failed.');
        app.report(e, `Importing ${f.name} failed`);
      })
      .finally(() => {
        importInput.value = '';
      });
  });

  clear.addEventListener('click', () => {
    if (!armed) {
      armed = true;
      clear.textContent = 'Click again to delete everything';
      return;
    }
    disarm();
    clear.disabled = true;
    app.memory
      .forget(app.settings.namespace)
      .then(() => {
        setResult('cleared', `Memory “${app.settings.namespace}” cleared.`);
        app.changed('cleared');
      })
      .catch((e: unknown) => app.report(e, 'Clearing failed'))
      .finally(() => {
        clear.disabled = false;
      });
  });
  clear.addEventListener('blur', disarm);

  app.on('opened', refreshLater);
  app.on('changed', refreshLater);
}
