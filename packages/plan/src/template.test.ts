import { describe, expect, it } from 'vitest';
import {
  renderTemplate,
  sequenceValue,
  templateSequences,
  templateVariables,
  tokenizeTemplate,
} from './template';

describe('tokenizeTemplate', () => {
  it('splits literal text, variables and sequences', () => {
    expect(tokenizeTemplate('https://a.test/users/{{userId}}?n={{ sequence_number , 100 }}&x=1')).toEqual([
      { kind: 'literal', text: 'https://a.test/users/' },
      { kind: 'variable', name: 'userId', raw: '{{userId}}' },
      { kind: 'literal', text: '?n=' },
      { kind: 'sequence', max: 100, raw: '{{ sequence_number , 100 }}' },
      { kind: 'literal', text: '&x=1' },
    ]);
  });

  it('keeps what is not a template as text', () => {
    expect(tokenizeTemplate('{{ not a var }} {{}} {{sequence_number,0}} {{a')).toEqual([
      { kind: 'literal', text: '{{ not a var }} {{}} {{sequence_number,0}} {{a' },
    ]);
    expect(tokenizeTemplate('${__time()} "q" \\ <&>')).toEqual([
      { kind: 'literal', text: '${__time()} "q" \\ <&>' },
    ]);
    expect(tokenizeTemplate('')).toEqual([]);
  });

  it("reads Postman's free-text names only when asked (a functional plan), the strict ones alike", () => {
    const text = '{{base url}}/{{$guid}}/{{ token }}/{{}}/{{a\nb}}';
    expect(tokenizeTemplate(text)).toEqual([
      { kind: 'literal', text: '{{base url}}/{{$guid}}/' },
      { kind: 'variable', name: 'token', raw: '{{ token }}' },
      { kind: 'literal', text: '/{{}}/{{a\nb}}' },
    ]);
    expect(tokenizeTemplate(text, { freeNames: true })).toEqual([
      { kind: 'variable', name: 'base url', raw: '{{base url}}' },
      { kind: 'literal', text: '/' },
      { kind: 'variable', name: '$guid', raw: '{{$guid}}' },
      { kind: 'literal', text: '/' },
      { kind: 'variable', name: 'token', raw: '{{ token }}' },
      { kind: 'literal', text: '/{{}}/{{a\nb}}' },
    ]);
    expect(tokenizeTemplate('{{{token}}}', { freeNames: true })).toEqual([
      { kind: 'literal', text: '{' },
      { kind: 'variable', name: 'token', raw: '{{token}}' },
      { kind: 'literal', text: '}' },
    ]);
  });

  it('finds a template inside extra braces', () => {
    expect(tokenizeTemplate('{{{token}}}')).toEqual([
      { kind: 'literal', text: '{' },
      { kind: 'variable', name: 'token', raw: '{{token}}' },
      { kind: 'literal', text: '}' },
    ]);
  });

  it('lists the variables and sequences text uses', () => {
    expect(templateVariables('{{a}}{{b}}{{a}}{{sequence_number,5}}')).toEqual(['a', 'b']);
    expect(templateSequences('{{sequence_number,5}}-{{sequence_number,5}}-{{sequence_number,7}}')).toEqual([
      5, 7,
    ]);
  });
});

describe('renderTemplate and sequenceValue', () => {
  it('counts 1..N and wraps after N', () => {
    expect([0, 1, 2, 3, 4].map((i) => sequenceValue(i, 3))).toEqual([1, 2, 3, 1, 2]);
  });

  it('expands known variables and sequences and keeps unknown ones as written', () => {
    const parts = tokenizeTemplate('/u/{{id}}/{{missing}}/{{sequence_number,10}}/{{constructor}}');
    expect(renderTemplate(parts, { id: '42' }, new Map([[10, 3]]))).toBe(
      '/u/42/{{missing}}/3/{{constructor}}',
    );
  });
});
