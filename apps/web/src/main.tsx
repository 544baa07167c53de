import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/App';
import { expireSessionIfDue } from '@/lib/session';
import './index.css';

// A stored session past its expiry ends before the first render, so the app opens on sign-in.
expireSessionIfDue();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
