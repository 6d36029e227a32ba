// Read helpers over the state document (protocol/PROTOCOL.md, "The state document"). Views read
// the state only through these, so later issues can extend the document in one place.

export function seatsOf(state) {
  const seats = state && state.seats;
  return seats && typeof seats === 'object' ? seats : {};
}

export function seatName(state, id) {
  const s = seatsOf(state)[id];
  if (s && typeof s.name === 'string' && s.name) return s.name;
  if (id === undefined || id === null) return 'Someone';
  return `${id} (left)`;
}

// Seats in a stable order: the GM first, then players in the order they joined (p1, p2, ... p10).
export function rosterOf(state) {
  const seats = seatsOf(state);
  const num = (id) => {
    const m = /(\d+)$/.exec(id);
    return m ? Number(m[1]) : Infinity;
  };
  return Object.keys(seats)
    .map((id) => ({ id, ...seats[id] }))
    .sort((a, b) => {
      const ga = a.role === 'gm' ? 0 : 1;
      const gb = b.role === 'gm' ? 0 : 1;
      return ga - gb || num(a.id) - num(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    });
}

// The log a seat sees, newest first: the public /log; a seat's own /private/<seat>/log (what the
// rules tell that seat alone; the GM receives every seat's) with `only` naming the seat; and, for
// the GM, the secret /gm/log. `key` tells the entries apart (one command may log several lines).
export function logOf(state) {
  const out = [];
  const add = (list, src, extra) => {
    if (!Array.isArray(list)) return;
    list.forEach((entry, i) => {
      if (entry && typeof entry === 'object') out.push({ entry, secret: false, key: `${src}:${entry.seq}:${i}`, ...extra });
    });
  };
  add(state?.log, 'pub', {});
  add(state?.gm?.log, 'gm', { secret: true });
  const priv = state?.private && typeof state.private === 'object' ? state.private : {};
  for (const seat of Object.keys(priv)) add(priv[seat]?.log, `seat-${seat}`, { only: seat });
  const seqOf = (e) => (Number.isFinite(e.entry.seq) ? e.entry.seq : -1);
  out.sort((a, b) => seqOf(b) - seqOf(a));
  return out;
}

export function joinOf(state) {
  const j = state && state.gm && state.gm.join;
  if (!j || typeof j !== 'object') return null;
  return { code: typeof j.code === 'string' ? j.code : null, open: j.open === true };
}

// A player character's whole sheet as this seat may see it: the public sheet plus the fields its
// system keeps private (cot's Loyalties, at /private/<seat>/sheets/<id>), which only the player
// and the GM receive.
export function fullSheet(state, c) {
  const priv = state?.private?.[c?.seat]?.sheets?.[c?.id];
  return priv && typeof priv === 'object' ? { ...(c.sheet || {}), ...priv } : c?.sheet;
}
