import type { ReactNode } from 'react';
import { useLocation } from 'wouter';

/** To the contact form at the end of the landing page (hash routing leaves no room for #contact). */
export function ContactLink({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const go = () => {
    navigate('/');
    requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById('contact')?.scrollIntoView()));
  };
  return (
    <button type="button" className="button accent" onClick={go}>
      {children}
    </button>
  );
}
