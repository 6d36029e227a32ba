// cot's initiative slots (000:31-38) for scripted scenes: whoever of the slot's side is up waits
// until the wanted character may take the current slot. `ctx` is a non-interference scenario's
// context (./noninterference.mjs): the GM's client keeps the replica the slots are read from.

let pings = 1000;

/** Has every slot's owner wait, as the GM, until `cid` may act; throws after 12 slots. */
export async function slotFor({ gm, act }, cid) {
  const sideOf = (c) => gm.state.enc.combatants[c].side;
  const taken = (c) => (gm.state.enc.combatants[c].claimed || []).length > 0;
  for (let i = 0; i < 12; i++) {
    await gm.ping(++pings); // every frame before it has reached the GM's replica
    const slot = gm.state.enc.order[gm.state.enc.turn];
    if (slot && slot.side === sideOf(cid) && !taken(cid)) return;
    const other = Object.keys(gm.state.enc.combatants).find(
      (c) => slot && sideOf(c) === slot.side && !taken(c) && c !== cid && !gm.state.enc.combatants[c].out,
    );
    await act(gm, 'wait', {}, other);
  }
  throw new Error(`${cid} never got a slot`);
}
