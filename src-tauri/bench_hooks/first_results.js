// Given to the main window only in a build for the benchmark (src-tauri/bench_hooks): finds, once a frame, the
// first result in the preview (the same parts the end-to-end tests find), and one frame later, when it has been
// painted, tells the shell. The page is never changed.
(() => {
  const shown = () =>
    document.querySelector('[data-testid=preview-host]')?.shadowRoot?.querySelector('[data-testid=result]');
  const look = () => {
    if (!shown()) {
      requestAnimationFrame(look);
      return;
    }
    requestAnimationFrame(() => {
      window.__TAURI_INTERNALS__.invoke('first_results_shown').catch(() => {});
    });
  };
  requestAnimationFrame(look);
})();
