import { describe, expect, it } from 'vitest';
import { bodyJson, bodyXml, ReusedResponseView } from './response-view';

describe('a call body read as JSON or XML', () => {
  it('is read once per response and shared by whatever asks again', () => {
    const response = { body: '{"id":7}' };
    const first = bodyJson(response);
    expect(first).toEqual({ json: { id: 7 } });
    expect(bodyJson(response)).toBe(first);
    // Another response with the same text is another call: read afresh.
    expect(bodyJson({ body: '{"id":7}' })).not.toBe(first);
    const xml = { body: '<a><b>1</b></a>' };
    expect(bodyXml(xml)).toBe(bodyXml(xml));
  });

  it('says when the body is not JSON or not XML', () => {
    expect(bodyJson({ body: '<html>' })).toBeNull();
    expect(bodyXml({ body: '{"id":7}' })).toHaveProperty('notXml');
  });
});

describe('ReusedResponseView', () => {
  it('reads each answer afresh after reset: body, JSON and XML', () => {
    const view = new ReusedResponseView();
    view.reset(200, Buffer.from('{"a":1}'));
    expect(bodyJson(view)).toEqual({ json: { a: 1 } });
    view.reset(201, Buffer.from('<a>x</a>'));
    expect(view.status).toBe(201);
    expect(view.body).toBe('<a>x</a>');
    expect(bodyJson(view)).toBeNull();
    expect('document' in bodyXml(view)).toBe(true);
    view.reset(204, undefined);
    expect(view.body).toBe('');
    expect(view.sizeBytes).toBe(0);
    expect('notXml' in bodyXml(view)).toBe(true);
  });
});
