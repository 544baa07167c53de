import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchMock, json, renderApp, signInAs, TEST_USER } from '@/test/render';

beforeEach(() => {
  vi.stubGlobal('fetch', createFetchMock({ 'GET /api/me': () => json({ user: TEST_USER }) }));
  signInAs();
});
afterEach(() => vi.unstubAllGlobals());

describe('settings', () => {
  it('applies and stores the theme at once', async () => {
    const user = userEvent.setup();
    renderApp('/settings');
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });
});
