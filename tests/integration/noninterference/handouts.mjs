// Handouts (PROTOCOL.md "Handouts"): the GM prepares handouts, shows one to Bob alone, shows
// another to everyone and hides it again, and keeps a third to themself. Varied: what the
// unshown handout and Bob's handout say and show (their words, their titles, their pictures);
// Ann, who is shown only the public one, must not tell the runs apart — not even that Bob was
// shown something.
const PNG_A =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
const PNG_B = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';

export const scenario = {
  name: 'handouts shown to some',
  system: 'cot',
  seed: 31,
  players: ['Ann', 'Bob'],
  observers: ['Ann'],
  variants: [
    { secret: 'The butler did it', image: PNG_A, bob: 'A letter for Bob', bobText: 'Meet me at the docks' },
    { secret: 'The duke is the thief, and the map is false', image: PNG_B, bob: 'Orders', bobText: 'Burn this after reading' },
  ],
  async script({ gm, seat, ok }, v) {
    await ok(gm, 'handout.add', { title: 'GM eyes only', text: v.secret, image: v.image });
    const bob = (await ok(gm, 'handout.add', { title: v.bob, text: v.bobText, image: v.image })).id;
    const map = (await ok(gm, 'handout.add', { title: 'The city map', text: 'Streets and sewers' })).id;
    await ok(gm, 'handout.show', { id: bob, to: [seat.Bob] });
    await ok(gm, 'handout.show', { id: map });
    await ok(gm, 'handout.hide', { id: bob });
    await ok(gm, 'handout.show', { id: bob, to: [seat.Bob] });
    await ok(gm, 'handout.hide', { id: map });
  },
};
