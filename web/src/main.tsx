import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchForLocation } from './api/prefetch';
import { App } from './app/App';
import './styles.css';

prefetchForLocation(window.location.pathname, new URLSearchParams(window.location.search));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
