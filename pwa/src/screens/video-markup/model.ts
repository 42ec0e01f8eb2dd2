/** The markup screen's messages (the rows themselves: offline/markup-rows.ts). */
export const INVALID_MARKUP = 'Разметка некорректна!';
export const INVALID_MARKUP_BANNER = 'Начало каждой операции должно быть раньше конца, и у всех строк должны быть выбраны операция и рабочее место.';
export const SAVED = 'Успешно сохранено!';
export const SAVE_FAILED = 'Данные введены некорректно';
export const LINK_COPIED = 'Ссылка скопирована!';
export const NO_LONGER_AT_SECOND = 'В этом видео уже нет текущей секунды! Обновите список других видео';
