// The blackboard panel: a table of entries per scope, the entries the shown frame
// changed highlighted.

export function renderBlackboard(el, info, s) {
  if (!info.live) { // a .btlog file (or a logger's database) records statuses only
    const p = document.createElement('p');
    p.className = 'empty';
    p.textContent = 'This file carries no blackboard: a recorded run holds the statuses of the nodes only.';
    el.replaceChildren(p);
    return;
  }
  const sections = [];
  info.scopes.forEach((scope, i) => {
    const entries = s.bb[i] || {};
    const keys = Object.keys(entries).sort();
    if (!keys.length && i > 0) return;
    const sec = document.createElement('section');
    sec.className = 'scope';
    sec.dataset.scope = i;
    const h = document.createElement('h3');
    h.textContent = i === 0 ? 'root' : scope.path;
    sec.append(h);
    if (!keys.length) {
      const p = document.createElement('p');
      p.className = 'empty';
      p.textContent = 'no entries';
      sec.append(p);
    } else {
      const table = document.createElement('table');
      for (const key of keys) {
        const tr = table.insertRow();
        tr.dataset.scope = i;
        tr.dataset.key = key;
        tr.classList.toggle('changed', s.bbChanged.has(`${i}/${key}`));
        const k = tr.insertCell();
        k.className = 'key';
        k.textContent = key;
        const v = tr.insertCell();
        v.className = 'value';
        v.textContent = JSON.stringify(entries[key]);
      }
      sec.append(table);
    }
    sections.push(sec);
  });
  el.replaceChildren(...sections);
}
