// Clicking on the board: a game drawing marks pieces with tokens (a deck name, a card,
// a Voyage id). Clicking pieces narrows the legal actions to those that use all of
// them; when one action is left it can be confirmed with one more click.

/** Every word and number inside an action: its kind and its (nested) arguments. */
export function tokensOf(entry) {
  const out = new Set([entry.action.kind]);
  const walk = (a) => (Array.isArray(a) ? a.forEach(walk) : out.add(String(a)));
  entry.action.args.forEach(walk);
  return out;
}

export class Selection {
  constructor() {
    this.tokens = [];
  }
  clear() {
    this.tokens = [];
  }
  filter(legal) {
    return legal.filter((a) => {
      const t = tokensOf(a);
      return this.tokens.every((x) => t.has(x));
    });
  }
  /** Tokens that can still be clicked (they appear in some action left). */
  hot(legal) {
    const hot = new Set();
    for (const a of this.filter(legal)) for (const t of tokensOf(a)) hot.add(t);
    return hot;
  }
  toggle(token, legal) {
    const i = this.tokens.indexOf(token);
    if (i >= 0) this.tokens.splice(i, 1);
    else if (this.hot(legal).has(token)) this.tokens.push(token);
    else return false;
    return true;
  }
}
