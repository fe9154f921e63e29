// API Directory: what the pages do with JavaScript, and only as an enhancement (every page works without
// it): copy buttons on code, and search results as you type, read from the JSON API of this same origin.
// No framework, nothing from another host; text goes into the page as text (textContent), never as HTML.
'use strict';

(function () {
  var status = null;

  /** Says something to screen readers (a polite live region, made on first use). */
  function announce(text) {
    if (!status) {
      status = document.getElementById('live-status');
      if (!status) {
        status = document.createElement('p');
        status.className = 'visually-hidden';
        status.setAttribute('role', 'status');
        document.body.appendChild(status);
      }
    }
    status.textContent = text;
  }

  // Copy buttons: hidden in the markup (they need this script), shown here.
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand('copy');
    document.body.removeChild(area);
    return done ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  document.querySelectorAll('button.copy[data-copy]').forEach(function (button) {
    var label = button.textContent;
    button.hidden = false;
    button.addEventListener('click', function () {
      var source = document.getElementById(button.getAttribute('data-copy'));
      if (!source) return;
      copyText(source.textContent).then(function () {
        button.textContent = button.getAttribute('data-copied');
        announce(button.getAttribute('data-copied'));
        setTimeout(function () {
          button.textContent = label;
        }, 2000);
      }, function () {
        var range = document.createRange();
        range.selectNodeContents(source);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      });
    });
  });

  // Search as you type: the form's own fields, asked of /api/v1/tools/search, shown in #results.
  var form = document.querySelector('form[data-live]');
  if (!form || !window.fetch || !window.URLSearchParams) return;
  var results = document.getElementById(form.getAttribute('data-live'));
  var input = form.querySelector('input[name="q"]');
  if (!results || !input) return;
  var zh = form.getAttribute('data-lang') === 'zh';
  var prefix = zh ? '/zh' : '';
  var onSearchPage = /\/search$/.test(location.pathname);
  var timer = null;
  var asked = 0;

  function params() {
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value.trim() !== '') query.append(name, value);
    });
    return query;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function show(answer) {
    var list = element('ul', 'cards');
    answer.results.forEach(function (item) {
      var card = element('li', 'card');
      var heading = element('h3');
      var link = element('a', null, zh ? item.nameCn : item.name);
      link.href = prefix + '/apis/' + encodeURIComponent(item.slug);
      heading.appendChild(link);
      card.appendChild(heading);
      var category = (zh && item.categoryCn) || item.category;
      card.appendChild(element('p', 'meta', category + ' · ' + form.getAttribute('data-popularity') + ' ' + item.popularity + '/100'));
      card.appendChild(element('p', null, zh ? item.descriptionCn : item.description));
      list.appendChild(card);
    });
    var count = answer.total === 0 ? form.getAttribute('data-none') : form.getAttribute('data-count').replace('{n}', String(answer.total));
    results.replaceChildren(element('h2', 'count', count), list);
    announce(count);
  }

  function search() {
    var query = params();
    if (!onSearchPage && !query.get('q')) {
      results.replaceChildren();
      return;
    }
    query.set('limit', onSearchPage ? '20' : '8');
    var mine = ++asked;
    fetch('/api/v1/tools/search?' + query.toString(), { headers: { accept: 'application/json' } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        // Only the newest question's answer is shown; a refused one (a bad filter value) changes nothing.
        if (!answer || mine !== asked) return;
        show(answer);
        if (onSearchPage) {
          query.delete('limit');
          history.replaceState(null, '', location.pathname + (query.toString() ? '?' + query.toString() : ''));
        }
      })
      .catch(function () {});
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(search, 250);
  }

  input.addEventListener('input', later);
  form.querySelectorAll('select, input[name="minContext"]').forEach(function (field) {
    field.addEventListener('change', later);
  });
})();
