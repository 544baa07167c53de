import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { createFetchMock, headersOf, json, renderWithRouter, signInAs, type FetchMock } from '@/test/render';
import { FinishedRunReports, ReportDownloads } from './ReportDownloads';

let fetchMock: FetchMock;
let click: MockInstance<() => void>;
let blobs: Blob[];

beforeEach(() => {
  signInAs();
  blobs = [];
  fetchMock = createFetchMock({
    'GET /api/test-report/r1': ({ url }) =>
      new Response(`<html>${new URL(url, 'http://localhost').searchParams.get('format')}</html>`, {
        headers: {
          'Content-Type': 'text/html',
          'Content-Disposition': 'attachment; filename="report_checkout-flow_r1.html"',
        },
      }),
    'GET /api/test-report/r2': () => json({ detail: 'Run r2 is still running' }, 409, 'Conflict'),
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal(
    'URL',
    Object.assign(URL, {
      createObjectURL: (blob: Blob) => {
        blobs.push(blob);
        return 'blob:report';
      },
      revokeObjectURL: () => undefined,
    }),
  );
  click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Report downloads', () => {
  it('fetches the report with the bearer token and saves it under the server file name', async () => {
    renderWithRouter(<ReportDownloads testId="r1" />);
    await userEvent.click(screen.getByTestId('report-html'));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/test-report/r1?format=html');
    expect(headersOf(init).Authorization).toBe('Bearer test-token');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('report_checkout-flow_r1.html');
    expect(await blobs[0]!.text()).toBe('<html>html</html>');
    expect(blobs[0]!.type).toBe('text/html;charset=utf-8');
  });

  it('says why a report could not be downloaded', async () => {
    renderWithRouter(<ReportDownloads testId="r2" />);
    await userEvent.click(screen.getByTestId('report-csv'));
    expect(await screen.findByTestId('report-error')).toHaveTextContent(
      'Failed to download the report: Run r2 is still running',
    );
  });

  it('on the live screen, appears only once the run has finished', () => {
    const running = renderWithRouter(<FinishedRunReports testId="r1" phase="running" />);
    expect(screen.queryByTestId('report-downloads')).not.toBeInTheDocument();
    running.unmount();
    renderWithRouter(<FinishedRunReports testId="r1" phase="completed" />);
    expect(screen.getByTestId('report-json')).toBeInTheDocument();
  });
});
