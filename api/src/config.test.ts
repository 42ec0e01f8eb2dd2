import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { configFromEnv, defaultJobSlots, siteLinksFromEnv } from './config';

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

describe('job slots (NORMA_JOB_SLOTS)', () => {
  it('default to one per core and never below 2, so that an ingest always finds a slot beside long jobs', () => {
    expect(defaultJobSlots(1)).toBe(2);
    expect(defaultJobSlots(2)).toBe(2);
    expect(defaultJobSlots(16)).toBe(16);
    expect(configFromEnv({}).jobSlots).toBe(Math.max(2, availableParallelism()));
    expect(configFromEnv({ NORMA_JOB_SLOTS: '3' }).jobSlots).toBe(3);
  });
});
