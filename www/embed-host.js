// Sizes backoff-lab chart iframes to their content. Add it once to the page that embeds them:
//   <script src="embed-host.js" defer></script>
//   <iframe src="https://…/embed.html#view=timeline" width="100%" height="460" frameborder="0"
//           loading="lazy" title="backoff-lab retry timeline"></iframe>
// Each embed posts {type: 'backoff-lab:height', height} to its parent; this sets the height of
// the iframe it came from. Without this script an iframe keeps the height it was given.
(function () {
  'use strict';
  // Pasted with every iframe's snippet, it is loaded more than once: one listener is enough
  // (compared to true: an element with id="backoffLabHost" is a window property too).
  if (window.backoffLabHost === true) return;
  window.backoffLabHost = true;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || data.type !== 'backoff-lab:height') return;
    var height = data.height;
    if (typeof height !== 'number' || !isFinite(height) || height < 50 || height > 5000) return;
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.round(height) + 'px';
        return;
      }
    }
  });
})();
