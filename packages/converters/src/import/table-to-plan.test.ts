import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { csvToPlan, parseCsv, sampleCsv } from './csv-to-plan';
import { ImportError } from './import-model';
import { readXlsxRows, sampleXlsx, writeXlsx, xlsxToPlan } from './xlsx-to-plan';

describe('CSV import', () => {
  it('imports its own sample file: every column of the layout lands in the step', () => {
    const result = csvToPlan({ name: 'sample.csv', text: sampleCsv() });
    expect(result.warnings).toEqual([]);
    expect(result.steps).toHaveLength(3);
    expect(result.steps[1]).toMatchObject({
      name: 'Create user',
      method: 'POST',
      url: 'https://api.example.com/users',
      headers: [
        { name: 'Content-Type', value: 'application/json' },
        { name: 'Accept', value: 'application/json' },
      ],
      payload: '{"name":"Ada Lovelace","role":"admin"}',
      thinkTime: '2s',
      authorization: { type: 'bearer', token: 'YOUR_TOKEN' },
      extractType: 'json',
      extractName: 'userId',
      extractValue: '$.id',
      assertionType: 'json',
      assertionPath: '$.name',
      assertionOperator: 'equals',
      assertionValue: 'Ada Lovelace',
    });
    expect(result.steps[0]?.parameters).toEqual([
      { key: 'page', value: '1' },
      { key: 'limit', value: '20' },
    ]);
  });

  it('accepts other column names and separators, quoted new lines, and header values holding ";"', () => {
    const text =
      'sep=;\r\nAPI Name;HTTP Method;Endpoint;Headers;Think_Time;Notes\r\n"Multi\nline";post;example.com/x?a=1;"Content-Type: text/html; charset=utf-8; X-A: 1";1.5;ignored\r\n;;;;;\r\n';
    const result = csvToPlan({ name: 'apis.csv', text });
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0]).toMatchObject({
      name: 'Multi line',
      method: 'POST',
      url: 'http://example.com/x',
      parameters: [{ key: 'a', value: '1' }],
      headers: [
        { name: 'Content-Type', value: 'text/html; charset=utf-8' },
        { name: 'X-A', value: '1' },
      ],
      thinkTime: '1.5',
    });
    expect(result.warnings).toEqual([
      { location: 'row 1', message: 'Column Notes is not part of the layout and is ignored' },
    ]);
    expect(parseCsv('a\tb\n1\t"2\t3"\n')).toEqual([
      ['a', 'b'],
      ['1', '2\t3'],
    ]);
  });

  it('refuses a file with bad values, listing every problem by row and column', () => {
    const text = 'name,method,url,thinkTime,authType\nA,FETCH,,2x,\nB,GET,https://h/b,1s,magic\n';
    expect(() => csvToPlan({ name: 'bad.csv', text })).toThrow(
      'bad.csv: 4 values cannot be imported: row 2, method: Method must be one of GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS; row 2, url: the URL is blank; row 2, thinkTime: Think time "2x" is not understood: write milliseconds like 1000ms, seconds like 2s, or a number of seconds like 1.5; row 3, authType: Authorization type must be one of none, bearer, basic, api_key, oauth2',
    );
  });

  it('refuses a data CSV that has no url column, showing the expected layout', () => {
    expect(() => csvToPlan({ name: 'logins.csv', text: 'username,password\nu,p\n' })).toThrow(
      /^logins\.csv: the first row must name the columns, with at least a "url" column; this file's columns are username, password\. Expected layout: name, method, url/,
    );
  });
});

describe('Excel import', () => {
  it('imports its own sample workbook exactly as the sample CSV', () => {
    const fromXlsx = xlsxToPlan({ name: 'sample.xlsx', bytes: sampleXlsx() });
    const fromCsv = csvToPlan({ name: 'sample.csv', text: sampleCsv() });
    expect(fromXlsx.steps).toEqual(fromCsv.steps);
    expect(fromXlsx.info).toMatchObject({ format: 'excel', kind: 'Excel workbook', requests: 3 });
  });

  it('reads shared strings, rich text, numbers, booleans and gaps as a spreadsheet program writes them', () => {
    const xml = (s: string) => strToU8(s);
    const bytes = zipSync({
      'xl/workbook.xml': xml(
        '<workbook xmlns:r="r"><sheets><sheet name="Plan" sheetId="3" r:id="rId7"/></sheets></workbook>',
      ),
      'xl/_rels/workbook.xml.rels': xml(
        '<Relationships><Relationship Id="rId7" Target="/xl/worksheets/plan.xml"/></Relationships>',
      ),
      'xl/sharedStrings.xml': xml(
        '<sst><si><t>url</t></si><si><t>method</t></si><si><r><t>https://h/</t></r><r><rPr/><t xml:space="preserve">a&amp;b</t></r><rPh><t>ignored</t></rPh></si><si><t>thinkTime</t></si></sst>',
      ),
      'xl/worksheets/plan.xml': xml(
        '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="D1" t="s"><v>3</v></c></row>' +
          '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" t="inlineStr"><is><t>get</t></is></c><c r="C3" t="b"><v>1</v></c><c r="D3"><f>1+1</f><v>2</v></c></row></sheetData></worksheet>',
      ),
    });
    expect(readXlsxRows(bytes)).toEqual([
      ['url', 'method', '', 'thinkTime'],
      [],
      ['https://h/a&b', 'get', 'TRUE', '2'],
    ]);
    expect(xlsxToPlan({ name: 'plan.xlsx', bytes }).steps[0]).toMatchObject({
      method: 'GET',
      url: 'https://h/a&b',
      thinkTime: '2',
    });
  });

  it('round-trips text that needs escaping', () => {
    const rows = [
      ['url', 'body'],
      ['https://h/x', '<a b="c">&amp; \'q\'</a>'],
    ];
    expect(readXlsxRows(writeXlsx(rows))).toEqual(rows);
  });

  it('refuses an old .xls workbook and a file that is not a workbook', () => {
    expect(() =>
      xlsxToPlan({ name: 'old.xls', bytes: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0]) }),
    ).toThrow(
      'old.xls: this is an Excel 97-2003 workbook (.xls), which is not supported; save it as .xlsx or CSV',
    );
    expect(() => xlsxToPlan({ name: 'x.xlsx', bytes: strToU8('name,url') })).toThrow(ImportError);
    expect(() => xlsxToPlan({ name: 'x.xlsx', bytes: zipSync({ 'a.txt': strToU8('x') }) })).toThrow(
      'x.xlsx: this is not an Excel workbook (.xlsx): it has no xl/workbook.xml',
    );
  });
});
