import { describe, expect, it } from 'vitest';
import { curlToPlan, splitCommands } from './curl-to-plan';

describe('curlToPlan', () => {
  it('reads method, headers, data and the URL, with the query as parameters', () => {
    const [step] = curlToPlan(
      `curl -X PUT 'https://api.test/users/7?notify=true' -H 'Content-Type: application/json' -H "X-Id: a b" --data-raw '{"name":"Ada"}'`,
    ).steps;
    expect(step).toMatchObject({
      name: 'PUT /users/7',
      method: 'PUT',
      url: 'https://api.test/users/7',
      parameters: [{ key: 'notify', value: 'true' }],
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'X-Id', value: 'a b' },
      ],
      payload: '{"name":"Ada"}',
    });
  });

  it('sends -d as a form POST, joins several -d with &, and -G moves them to the query', () => {
    const [post] = curlToPlan('curl https://h/form -d a=1 --data b=2 --data-urlencode "c=x y"').steps;
    expect(post).toMatchObject({ method: 'POST', payload: 'a=1&b=2&c=x%20y' });
    expect(post?.headers).toContainEqual({
      name: 'Content-Type',
      value: 'application/x-www-form-urlencoded',
    });
    const [get] = curlToPlan('curl -G https://h/search -d q=test -d limit=5').steps;
    expect(get).toMatchObject({
      method: 'GET',
      payload: '',
      parameters: [
        { key: 'q', value: 'test' },
        { key: 'limit', value: '5' },
      ],
    });
  });

  it('maps -u, --oauth2-bearer and Authorization headers to the authorization', () => {
    const { steps } = curlToPlan(
      [
        'curl -u admin:s3cr:et https://h/a',
        'curl --oauth2-bearer T0KEN https://h/b',
        "curl -H 'Authorization: Bearer abc.def' https://h/c",
        `curl -H 'Authorization: Basic ${btoa('ada:pw')}' https://h/d`,
      ].join('\n'),
    );
    expect(steps.map((s) => s.authorization)).toMatchObject([
      { type: 'basic', username: 'admin', password: 's3cr:et' },
      { type: 'bearer', token: 'T0KEN' },
      { type: 'bearer', token: 'abc.def' },
      { type: 'basic', username: 'ada', password: 'pw' },
    ]);
    expect(steps[2]?.headers).toEqual([]);
  });

  it('reads several commands, line continuations, --url, --compressed, -F and -m', () => {
    const result = curlToPlan(
      [
        "curl 'https://h/one' \\",
        "  -H 'Accept: */*' \\",
        '  --compressed',
        '',
        'curl --url h/two -F name=Ada -F avatar=@me.png -m 12.5',
        'curl -sSLk -XDELETE https://h/three',
      ].join('\n'),
    );
    expect(result.steps.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET https://h/one',
      'POST http://h/two',
      'DELETE https://h/three',
    ]);
    expect(result.steps[0]?.headers).toEqual([{ name: 'Accept', value: '*/*' }]);
    expect(result.steps[1]?.timeout).toBe(13);
    expect(result.steps[1]?.payload).toContain('name="avatar"; filename="me.png"');
    expect(result.warnings).toEqual([
      { location: 'line 5', message: expect.stringContaining('File field avatar') as string },
    ]);
    expect(result.info).toMatchObject({ requests: 3, methods: { GET: 1, POST: 1, DELETE: 1 } });
  });

  it("understands bash $'...' quoting and Windows cmd ^ escapes", () => {
    expect(splitCommands("curl $'https://h/a\\'b' -H $'X: 1\\t2'")[0]?.words).toEqual([
      'curl',
      "https://h/a'b",
      '-H',
      'X: 1\t2',
    ]);
    const [step] = curlToPlan('curl ^"https://h/cmd^" ^\n  -H ^"accept: text/html^"').steps;
    expect(step).toMatchObject({ url: 'https://h/cmd', headers: [{ name: 'accept', value: 'text/html' }] });
  });

  it('warns about what it cannot use, and refuses text with no curl command', () => {
    const result = curlToPlan('curl -d @body.json https://h/x --proxy-negotiate\nwget https://h/y');
    expect(result.warnings.map((w) => w.message)).toEqual([
      'The body is read from the file body.json, which is not available; add the body by hand',
      'The curl option --proxy-negotiate is not understood and is left out',
      '"wget" is not a curl command, so this line is left out',
    ]);
    expect(() => curlToPlan({ name: 'cmds.txt', text: 'wget https://h' })).toThrow(
      'cmds.txt: no curl command was found: each command must start with curl',
    );
  });
});
