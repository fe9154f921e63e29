// API Directory: what the pages do with JavaScript, and only as an enhancement (every page works without
// it): copy buttons on code, and search results as you type, read from the search page of this same origin.
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

  // Sortable tables (data-sortable): a header marked data-sort becomes a button that orders the rows by its
  // cells' data-value, ascending then descending, cells without a value last; aria-sort says which.
  document.querySelectorAll('table[data-sortable]').forEach(function (table) {
    var heads = table.querySelectorAll('thead th[data-sort]');
    heads.forEach(function (th) {
      var column = Array.prototype.indexOf.call(th.parentNode.children, th);
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener('click', function () {
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        heads.forEach(function (other) {
          other.removeAttribute('aria-sort');
        });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var value = function (row) {
          var cell = row.cells[column];
          var text = cell ? cell.getAttribute('data-value') : '';
          return text === '' || text === null ? NaN : Number(text);
        };
        Array.prototype.slice
          .call(body.rows)
          .sort(function (a, b) {
            var x = value(a);
            var y = value(b);
            if (isNaN(x) || isNaN(y)) return isNaN(x) - isNaN(y);
            return ascending ? x - y : y - x;
          })
          .forEach(function (row) {
            body.appendChild(row);
          });
      });
    });
  });

  // Comparisons on a phone read down (site.css, table.compare.stacked): each cell is given the name of its
  // column's listing, shown above its value. Names are written once in the head, not in every cell, so the
  // page stays small; without this script a phone scrolls the table sideways in its own box instead.
  document.querySelectorAll('table.compare').forEach(function (table) {
    var names = Array.prototype.map.call(table.tHead.rows[0].cells, function (cell) {
      return cell.textContent.trim();
    });
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      Array.prototype.forEach.call(row.cells, function (cell, i) {
        if (i > 0) cell.setAttribute('data-label', names[i]);
      });
    });
    table.classList.add('stacked');
  });

  // Search as you type: the form's own fields, asked of the search page of this same origin, and its
  // server-rendered results (cards, compare boxes, pager) put in place of #results. One renderer of
  // results, the server's; the script only swaps them in.
  var form = document.querySelector('form[data-live]');
  if (!form || !window.fetch || !window.URLSearchParams || !window.DOMParser) return;
  var results = document.getElementById(form.getAttribute('data-live'));
  var input = form.querySelector('input[name="q"]');
  if (!results || !input) return;
  var searchPath = form.getAttribute('action');
  var onSearchPage = location.pathname === searchPath;
  var timer = null;
  var asked = 0;

  function params() {
    var query = new URLSearchParams();
    new FormData(form).forEach(function (value, name) {
      if (typeof value === 'string' && value.trim() !== '') query.append(name, value);
    });
    return query;
  }

  function search() {
    var query = params();
    if (!onSearchPage && !query.get('q')) {
      results.replaceChildren();
      return;
    }
    var mine = ++asked;
    fetch(searchPath + '?' + query.toString(), { headers: { accept: 'text/html' } })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        // Only the newest question's answer is shown; a refused one (a bad filter value) changes nothing.
        if (html === null || mine !== asked) return;
        // A parsed document runs no script; its nodes are adopted as they are.
        var page = new DOMParser().parseFromString(html, 'text/html');
        var fresh = page.getElementById('results');
        if (!fresh) return;
        if (onSearchPage) {
          results.replaceChildren.apply(results, Array.prototype.slice.call(fresh.childNodes));
          keepInStep(page);
          history.replaceState(null, '', location.pathname + (query.toString() ? '?' + query.toString() : ''));
        } else {
          suggest(fresh, query);
        }
        var count = results.querySelector('.count');
        if (count) announce(count.textContent);
      })
      .catch(function () {});
  }

  // The search page's heading, title, canonical and language links follow the query, so switching to the
  // other language or sharing the address keeps what was typed; so does the count of filters set.
  function keepInStep(page) {
    document.title = page.title;
    [['h1', null], ['.count-set', null], ['link[rel="canonical"]', 'href'], ['link[rel="alternate"][hreflang]', 'href'], ['a.lang', 'href']].forEach(function (pair) {
      var mine = document.querySelectorAll(pair[0]);
      var theirs = page.querySelectorAll(pair[0]);
      mine.forEach(function (element, i) {
        if (!theirs[i]) return;
        if (pair[1]) element.setAttribute(pair[1], theirs[i].getAttribute(pair[1]));
        else element.textContent = theirs[i].textContent;
      });
    });
  }

  // The home page shows a short list of suggestions (name and category of the first eight), not cards,
  // and a link to every result on the search page.
  var SUGGESTIONS = 8;
  function suggest(fresh, query) {
    var list = document.createElement('ul');
    list.className = 'suggestions';
    Array.prototype.slice.call(fresh.querySelectorAll('.card'), 0, SUGGESTIONS).forEach(function (card) {
      var link = card.querySelector('h3 a');
      var category = card.querySelector('.meta a');
      if (!link) return;
      var item = document.createElement('li');
      var a = document.createElement('a');
      a.href = link.getAttribute('href');
      a.textContent = link.textContent;
      item.appendChild(a);
      if (category) {
        var small = document.createElement('span');
        small.className = 'small muted';
        small.textContent = ' · ' + category.textContent;
        item.appendChild(small);
      }
      list.appendChild(item);
    });
    var parts = [];
    var count = fresh.querySelector('.count');
    if (count) {
      var heading = document.createElement('p');
      heading.className = 'count';
      heading.textContent = count.textContent;
      parts.push(heading);
    }
    if (list.childNodes.length > 0) parts.push(list);
    var all = document.createElement('a');
    all.href = searchPath + '?' + query.toString();
    all.className = 'all';
    all.textContent = form.getAttribute('data-all') || searchPath;
    if (list.childNodes.length > 0) parts.push(all);
    results.replaceChildren.apply(results, parts);
  }

  function later() {
    clearTimeout(timer);
    timer = setTimeout(search, 250);
  }

  input.addEventListener('input', later);
  form.querySelectorAll('select, input:not([name="q"])').forEach(function (field) {
    field.addEventListener('change', later);
  });
})();
