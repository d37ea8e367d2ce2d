// The page's style and script, inline so the report stays one file that opens offline, from a CI
// artifact or an e-mail, with nothing to fetch.

export const HTML_STYLE = `
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1.5rem 2rem;max-width:76rem;color:#1f2328}
h1{margin:.2rem 0}h2{margin-top:2rem}
.verdict{padding:1rem 1.25rem;border-radius:.4rem;color:#fff;margin:1rem 0}
.verdict strong{font-size:1.6rem;letter-spacing:.04em;margin-right:.8rem}
.verdict.failed{background:#c62828}.verdict.passed{background:#2e7d32}.verdict.empty{background:#616161}
.verdict.passed.client{background:#8a5a00}.fault-client{color:#8a5a00}details.failure.client{border-left-color:#e0a000}
.verdict .facts{margin:.4rem 0 0;opacity:.95}
#filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #d0d7de;padding:.6rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;z-index:1}
#filters fieldset{border:0;padding:0;margin:0;display:flex;gap:.5rem;align-items:center}
#filters input[type=search]{min-width:16rem}#shown{color:#57606a}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
table.matrix td.passed{background:#e8f5e9}table.matrix td.failed{background:#ffebee}table.matrix td.skipped{background:#f5f5f5;color:#777}
table.matrix td.partial{background:#fff8e1}table.matrix ul{list-style:none;margin:0;padding:0;font-size:.85rem}
table.matrix{width:100%;table-layout:fixed}table.matrix th:first-child{width:14.5rem;overflow-wrap:anywhere}
table.matrix li{overflow-wrap:anywhere;margin-bottom:.15rem}table.matrix .time{white-space:nowrap}a{color:#0550ae}
.s-passed{color:#2e7d32}.s-failed{color:#c62828;font-weight:bold}.s-skipped{color:#777}
.badge{display:inline-block;border-radius:.3rem;padding:0 .35rem;font-size:.75rem;font-weight:600;border:1px solid currentColor}
.profile-strict{color:#8250df}.profile-documented{color:#0550ae}.time{color:#57606a;font-size:.85rem}
details.failure{border-left:4px solid #c62828;padding:.2rem 0 .2rem 1rem;margin:1rem 0;scroll-margin-top:6rem}
details.failure>summary{cursor:pointer;font-size:1.05rem}details.failure:target{background:#fff3f3}
.reason{font-weight:600}pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
table.headers td,table.headers th{font-family:monospace;font-size:.85rem}
.swatch{display:inline-block;width:.8rem;height:.8rem;margin:0 .25rem 0 .75rem;vertical-align:middle}
[hidden]{display:none!important}
`;

/**
 * Filters every element that carries `data-status` by the form's status boxes, category, operation,
 * profile and search text; a failure cause, matrix row or section left with nothing shown hides too.
 */
export const HTML_SCRIPT = `
(() => {
  const form = document.getElementById('filters');
  if (!form) return;
  const items = [...document.querySelectorAll('[data-status]')];
  const rows = [...document.querySelectorAll('#results tbody tr')];
  const shown = document.getElementById('shown');
  const apply = () => {
    const statuses = new Set([...form.querySelectorAll('input[name=status]:checked')].map((box) => box.value));
    const want = { category: form.elements.category.value, operation: form.elements.operation.value, profile: form.elements.profile.value };
    const text = form.elements.q.value.trim().toLowerCase();
    for (const item of items) {
      const d = item.dataset;
      item.hidden = !(statuses.has(d.status)
        && (!want.category || d.category === want.category)
        && (!want.operation || d.operation === want.operation)
        && (!want.profile || d.profile === want.profile)
        && (!text || d.search.includes(text)));
    }
    for (const group of document.querySelectorAll('[data-group]'))
      group.hidden = !group.querySelector('[data-status]:not([hidden])');
    shown.textContent = rows.filter((row) => !row.hidden).length + ' of ' + rows.length + ' checks shown';
  };
  form.addEventListener('input', apply);
  form.addEventListener('change', apply);
  form.addEventListener('reset', () => setTimeout(apply));
  apply();
})();
`;
