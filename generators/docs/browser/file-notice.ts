// A classic script (module scripts do not run from file://): a portal opened from a folder cannot load
// its search index or the playground's validators, so it says so at once, with what to do instead.
if (location.protocol === 'file:') {
  const notice = document.createElement('div');
  notice.className = 'notice file-notice';
  notice.setAttribute('role', 'alert');
  notice.dataset.fileNotice = '';
  notice.innerHTML =
    '<strong>Opened from a folder.</strong> Pages read fine, but search and the playground need the portal served over HTTP: ' +
    'run <code>npx eventry serve</code> and open <code>http://127.0.0.1:8081/docs/</code>, or serve this folder with any static server ' +
    '(<code>python3 -m http.server</code>).';
  const show = () => document.querySelector('main')?.prepend(notice);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
}
