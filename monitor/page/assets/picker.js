// The tree picker: a button naming the tree shown and, when pressed, a list of the
// trees filtered by what is typed — a crowd adds thousands.

const SHOWN = 200; // items listed at most; typing narrows the rest

const $ = (id) => document.getElementById(id);

export class Picker {
  constructor(choose) {
    this.choose = choose;
    this.trees = [];
    this.items = [];
    this.at = 0;
    $('pick').onclick = () => this.toggle();
    $('pick-q').oninput = () => this.filter();
    $('pick-q').onkeydown = (e) => this.key(e);
    document.addEventListener('pointerdown', (e) => {
      if (!$('pick-pop').hidden && !e.target.closest('#picker')) this.close();
    });
  }

  set(trees) {
    this.trees = trees;
    $('picker').hidden = trees.length < 2;
  }

  show(name) {
    const t = this.trees.find((x) => x.name === name);
    $('pick-name').textContent = t && !t.live ? `${name} (replay)` : name;
  }

  toggle() {
    if (!$('pick-pop').hidden) return this.close();
    $('pick-pop').hidden = false;
    $('pick-q').value = '';
    this.filter();
    $('pick-q').focus();
  }

  close() { $('pick-pop').hidden = true; }

  filter() {
    const q = $('pick-q').value.trim().toLowerCase();
    const all = q ? this.trees.filter((t) => t.name.toLowerCase().includes(q)) : this.trees;
    this.items = all.slice(0, SHOWN);
    this.at = 0;
    $('pick-list').replaceChildren(...this.items.map((t, i) => {
      const li = document.createElement('li');
      li.role = 'option';
      li.dataset.name = t.name;
      li.textContent = t.live ? t.name : `${t.name} (replay)`;
      li.onclick = () => this.pick(i);
      return li;
    }));
    this.mark();
    $('pick-count').textContent = all.length > SHOWN ? `${SHOWN} of ${all.length}: type to narrow` : `${all.length} of ${this.trees.length}`;
  }

  mark() {
    [...$('pick-list').children].forEach((li, i) => li.classList.toggle('at', i === this.at));
    $('pick-list').children[this.at]?.scrollIntoView({ block: 'nearest' });
  }

  key(e) {
    if (e.key === 'ArrowDown') this.at = Math.min(this.at + 1, this.items.length - 1);
    else if (e.key === 'ArrowUp') this.at = Math.max(this.at - 1, 0);
    else if (e.key === 'Enter') return this.pick(this.at);
    else if (e.key === 'Escape') return this.close();
    else return;
    e.preventDefault();
    this.mark();
  }

  pick(i) {
    const t = this.items[i];
    if (!t) return;
    this.close();
    this.choose(t.name);
  }
}
