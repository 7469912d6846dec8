import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttrPair } from '../model/signals.js';
import { deriveEndpoint } from './endpoint.js';
import { span } from './fixtures.test-support.js';

const cases: { name: string; spanName: string; attrs: AttrPair[]; expected: string }[] = [
  { name: 'a name with a slash is kept', spanName: 'GET /users/42', attrs: [['http.route', '/users/:id']], expected: 'GET /users/42' },
  { name: 'http.route is appended', spanName: 'GET', attrs: [['http.route', '/users/:id']], expected: 'GET /users/:id' },
  {
    name: 'http.route is preferred over url.path',
    spanName: 'GET',
    attrs: [
      ['url.path', '/users/42'],
      ['http.route', '/users/{id}'],
    ],
    expected: 'GET /users/{id}',
  },
  { name: 'segments with digits are masked', spanName: 'GET', attrs: [['url.path', '/v1/orders/12345/items']], expected: 'GET /<*>/orders/<*>/items' },
  {
    name: 'segments longer than 24 characters are masked',
    spanName: 'POST',
    attrs: [['url.path', '/tokens/abcdefghijklmnopqrstuvwxyz/x']],
    expected: 'POST /tokens/<*>/x',
  },
  { name: 'a 24-character segment stays', spanName: 'GET', attrs: [['url.path', '/abcdefghijklmnopqrstuvwx']], expected: 'GET /abcdefghijklmnopqrstuvwx' },
  { name: 'the query is removed from http.target', spanName: 'GET', attrs: [['http.target', '/search?q=7&page=2']], expected: 'GET /search' },
  {
    name: 'url.full loses scheme, host, query and fragment',
    spanName: 'GET',
    attrs: [['url.full', 'https://shop.example:8443/cart/9f8e?x=1#top']],
    expected: 'GET /cart/<*>',
  },
  { name: 'http.url is the last resort', spanName: 'GET', attrs: [['http.url', 'http://h/health']], expected: 'GET /health' },
  { name: 'a URL with no path is /', spanName: 'GET', attrs: [['url.full', 'http://host?x=1']], expected: 'GET /' },
  { name: 'no route attribute: the name alone', spanName: 'process job', attrs: [], expected: 'process job' },
  { name: 'a non-string attribute is ignored', spanName: 'GET', attrs: [['http.route', 42]], expected: 'GET' },
];

for (const c of cases) {
  test(`endpoint: ${c.name}`, () => {
    const root = span({ id: 'r', service: 'shop', name: c.spanName, start: 0, end: 1, attrs: c.attrs });
    assert.deepEqual(deriveEndpoint(root), { service: 'shop', name: c.expected });
  });
}
