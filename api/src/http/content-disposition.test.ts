import { describe, expect, it } from 'vitest';
import { contentDisposition } from './content-disposition';
import { tsvText } from './tsv';

describe('contentDisposition', () => {
  it('gives a plain ASCII name as it is, without filename*', () => {
    expect(contentDisposition('norma-loader_1.0.0_amd64.deb')).toBe('attachment; filename="norma-loader_1.0.0_amd64.deb"');
  });

  it('adds the full name as filename* when it is not plain ASCII, with an ASCII fallback', () => {
    const header = contentDisposition('Смена "А".tsv', { inline: true });
    expect(header.startsWith('inline; filename="_____ ___.tsv"; ')).toBe(true);
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe('Смена "А".tsv');
  });

  it('takes a given ASCII fallback name', () => {
    const header = contentDisposition('Учёт времени.tsv', { asciiName: 'worktime.tsv' });
    expect(header).toBe(`attachment; filename="worktime.tsv"; filename*=UTF-8''${encodeURIComponent('Учёт времени.tsv')}`);
  });
});

describe('tsvText', () => {
  it('writes the header and the rows, each field made safe, ending with a line break', () => {
    const text = tsvText(
      ['№', 'Операция', 'Начало, с'],
      [
        [1, '=HYPERLINK("x")', '-3.500'],
        [2, 'a\tb\nc', null],
      ],
    );
    expect(text).toBe('№\tОперация\tНачало, с\n1\t\'=HYPERLINK("x")\t-3.500\n2\ta b c\t\n');
  });
});
