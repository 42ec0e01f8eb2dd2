import { describe, expect, it } from 'vitest';
import { configFromEnv, siteLinksFromEnv } from './config';

describe('outside links (NORMA_LINK_*)', () => {
  it('are absent unless set, so the pages show no link to a site the installation has not named', () => {
    expect(configFromEnv({}).site.links).toEqual({});
    expect(siteLinksFromEnv({ NORMA_LINK_TRACKER: ' ', NORMA_LINK_SCHOLAR: '' })).toEqual({});
  });

  it('take http(s) addresses and refuse anything else with the variable named', () => {
    expect(siteLinksFromEnv({ NORMA_LINK_TRACKER: 'https://tracker.example.org', NORMA_LINK_ELIBRARY: 'https://elibrary.example.org/author/1' })).toEqual({
      tracker: 'https://tracker.example.org/',
      elibrary: 'https://elibrary.example.org/author/1',
    });
    expect(() => siteLinksFromEnv({ NORMA_LINK_FORMWORK: 'javascript:alert(1)' })).toThrow(/NORMA_LINK_FORMWORK: ожидается адрес http/);
    expect(() => siteLinksFromEnv({ NORMA_LINK_DISTRICT: 'district' })).toThrow(/NORMA_LINK_DISTRICT/);
  });
});
