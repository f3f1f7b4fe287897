// The page hears the worker's broadcasts (install progress, cache repairs) on BroadcastChannels,
// but only while it is shown: a listening channel keeps a page out of the back/forward cache.

/**
 * Listens to a BroadcastChannel of the worker's while the page is shown. Chromium keeps no page
 * with a listening channel in the back/forward cache (reason BroadcastChannelOnMessage, measured
 * in Chromium 156), and a tab restored from it is how a person often comes back: the channel
 * closes when the page is hidden that way and opens again when it is restored.
 */
export function listenWhileShown<T>(name: string, onMessage: (data: T) => void): void {
  // Safari before 15.4 has workers but no BroadcastChannel: no progress or repair news there.
  if (!self.BroadcastChannel) return;
  let channel: BroadcastChannel | undefined;
  const open = () => {
    channel = new BroadcastChannel(name);
    channel.onmessage = (event: MessageEvent<T>) => onMessage(event.data);
  };
  open();
  addEventListener('pagehide', () => {
    channel?.close();
    channel = undefined;
  });
  addEventListener('pageshow', (event) => {
    if (event.persisted && !channel) open();
  });
}
