// The campaign's routing key in the page's path (issue 28; server/route.h). Behind a router of
// several tabled processes, a campaign's links are /c/<campaign>/#…: the page at /c/<key>/ opens
// /c/<key>/ws and asks /c/<key>/api/join, and the links it builds keep the key, so the router
// sends all of it to the process that owns the campaign. A page at / (one process, or a link
// printed before the shards) uses /ws and /api/join as before.

const KEYED = /^\/c\/([a-z0-9][a-z0-9-]{0,39})(\/|$)/;

// "/c/<key>/" or "/".
export function routeBase(loc = globalThis.location) {
  const m = KEYED.exec(loc?.pathname || '');
  return m ? `/c/${m[1]}/` : '/';
}

// The WebSocket of this page's campaign.
export function wsUrl(loc = globalThis.location) {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${routeBase(loc)}ws`;
}

// A campaign minted behind a router has an id "<process>-c…". A page that shows it at another
// path (a console at /c/<process>/, a bookmark of /) moves to /c/<id>/ without a reload, so its
// next reload and the links it builds go to the owner. Ids of before the shards stay where they
// are (the router sends unkeyed paths to the process that kept them).
export function keepRoute(campaignId, loc = globalThis.location, hist = globalThis.history) {
  if (typeof campaignId !== 'string' || !/^[a-z0-9]+-[a-z0-9]+$/.test(campaignId)) return;
  const want = `/c/${campaignId}/`;
  if (routeBase(loc) === want) return;
  try {
    hist.replaceState(hist.state, '', want + (loc.search || '') + (loc.hash || ''));
  } catch {
    /* no history API: the page keeps its path */
  }
}
