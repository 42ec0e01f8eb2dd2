/**
 * Look-alike logins. Logins may be Cyrillic (STACK-FACTS), so "аdmin" with a Cyrillic «а» is a
 * valid login that reads as "admin". A login's skeleton (after Unicode TR39's idea) folds
 * compatibility forms (NFKC), case, and Cyrillic/Greek letters (and 0/1) that look like Latin
 * ones; two logins with the same skeleton look the same on screen, and the second is refused.
 * A purely Cyrillic login stays allowed as long as no existing login looks like it.
 */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  з: '3',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  һ: 'h',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ү: 'y',
  ь: 'b',
  ɡ: 'g',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
  ϳ: 'j',
  ω: 'w',
  // Latin look-alikes and digits
  ı: 'i',
  ℓ: 'l',
  '0': 'o',
  '1': 'l',
};

export function loginSkeleton(login: string): string {
  let skeleton = '';
  for (const char of login.normalize('NFKC').toLowerCase()) skeleton += CONFUSABLES[char] ?? char;
  return skeleton;
}

export const LOOK_ALIKE_LOGIN = 'Логин слишком похож на существующий';
