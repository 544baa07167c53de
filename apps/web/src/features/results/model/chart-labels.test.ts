import { describe, expect, it } from 'vitest';
import { apiChartName, apiUrlLine, comparisonLabels, urlPath, wrapLabel } from './chart-labels';

describe('apiChartName', () => {
  it("calls a step without a name of its own by method and path, not by the server's long name", () => {
    const origin = 'http://127.0.0.1:5200';
    expect(
      apiChartName({
        name: `GET ${origin}/users/1`,
        label: `GET ${origin}/users/1`,
        method: 'GET',
        url: `${origin}/users/1`,
      }),
    ).toBe('GET /users/1');
    expect(
      apiChartName({ name: `${origin}/orders?page=2`, method: 'post', url: `${origin}/orders?page=2` }),
    ).toBe('POST /orders?page=2');
    expect(apiChartName({ method: 'GET', url: 'https://shop.example' })).toBe('GET /');
  });

  it('keeps a name the user gave', () => {
    expect(apiChartName({ name: 'List users', method: 'GET', url: 'http://h/users' })).toBe('List users');
    expect(apiChartName({ name: '', label: 'Login', method: 'POST', url: 'http://h/login' })).toBe('Login');
  });

  it('works with templated addresses and gives null with nothing to go by', () => {
    expect(apiChartName({ method: 'GET', url: '{{base}}/users/{{id}}' })).toBe('GET {{base}}/users/{{id}}');
    expect(urlPath('http://{{host}}:8080/a/b')).toBe('/a/b');
    expect(apiChartName({})).toBeNull();
  });
});

describe('comparisonLabels', () => {
  it('cuts names to 15 characters as the spec says when they stay distinct', () => {
    expect(
      comparisonLabels(['Create order with a long name', 'List users', 'API_get_all_users_of_the_tenant']),
    ).toEqual(['Create order wi…', 'List users', 'API_get_all_users_of_the_tenant']);
  });

  it('shows names whole, over lines, where the cut would make two APIs look the same', () => {
    const labels = comparisonLabels(['GET /api/orders/1', 'GET /api/orders/2', 'GET /health']);
    expect(labels[0]).toEqual('GET /api/orders/1');
    expect(labels[1]).toEqual('GET /api/orders/2');
    expect(labels[2]).toBe('GET /health');
    const long = comparisonLabels(['GET /api/v1/customers/search', 'GET /api/v1/customers/export']);
    expect(long[0]).toEqual(['GET /api/v1', '/customers/search']);
    expect(long[1]).toEqual(['GET /api/v1', '/customers/export']);
    expect(new Set(long.map((label) => JSON.stringify(label))).size).toBe(2);
  });

  it('two unnamed APIs of one host are told apart (the issue: "GET http://127...." twice)', () => {
    const origin = 'http://127.0.0.1:5200';
    const names = [`${origin}/users`, `${origin}/orders`].map((url) =>
      apiChartName({ name: `GET ${url}`, method: 'GET', url })!,
    );
    expect(comparisonLabels(names)).toEqual(['GET /users', 'GET /orders']);
  });
});

describe('wrapLabel', () => {
  it('breaks at slashes and spaces, and hard when a word is too long', () => {
    expect(wrapLabel('short')).toEqual(['short']);
    expect(wrapLabel('x'.repeat(40))).toEqual(['x'.repeat(18), 'x'.repeat(18), 'xxxx']);
  });
});

describe('apiUrlLine', () => {
  const origin = 'http://127.0.0.1:5200';
  const named = { name: 'Users', method: 'GET', url: `${origin}/users?page=2` };
  const unnamed = { name: `GET ${origin}/users`, method: 'GET', url: `${origin}/users` };

  it('is the whole URL when no host is said above the rows', () => {
    expect(apiUrlLine(named, null)).toBe(`${origin}/users?page=2`);
    expect(apiUrlLine(unnamed, null)).toBe(`${origin}/users`);
  });

  it('is the path under a name of its own when the host is said above, and nothing under a path label', () => {
    expect(apiUrlLine(named, origin)).toBe('/users?page=2');
    expect(apiUrlLine(unnamed, origin)).toBeNull();
    expect(apiUrlLine({ name: 'No call' }, null)).toBeNull();
  });
});
