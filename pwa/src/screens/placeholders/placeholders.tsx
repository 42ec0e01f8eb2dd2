import { ScreenPlaceholder } from '../../ui/Placeholder';

/** Screens that later capabilities build; each says what it will hold. */
type Params = Record<string, string | undefined>;

export const placeholders = {
  summary: () => (
    <ScreenPlaceholder title="Сводка по разметчикам" will={['Период «с» и «по» с шагом в час, бюджет (по умолчанию 100 000 ₽) и стоимость часа разметки', 'Таблица разметчиков: имя, размеченные часы, оплата', 'Детализация: имя, дата, рабочее место, часы, стоимость']} />
  ),

  periodEdit: ({ structureId, timeFrom, timeTo }: Params) => (
    <ScreenPlaceholder title="Редактирование разметки за период" will={[`Структура № ${structureId}, период ${timeFrom} — ${timeTo}`, 'Строки операций (новые сверху): операция, рабочее место, сотрудник, начало и конец, комментарий', 'Добавление, удаление и сохранение с предупреждением о несохранённых изменениях']} />
  ),
  statement: ({ structureId, employeeId, fromTime, toTime }: Params) => (
    <ScreenPlaceholder title="Отчёт-ведомость" will={[`Структура № ${structureId}, сотрудник № ${employeeId}, ${fromTime} — ${toTime}`, 'Таблицы 1–6: основные показатели, наблюдательные листы, фотография рабочего дня, перерывы', 'Загрузка и переработка, диаграммы сбалансированной работы, Парето, такт', 'PDF-версия']} />
  ),
  blockReport: ({ structureId, fromTime, toTime }: Params) => (
    <ScreenPlaceholder title="Блочный отчёт" will={[`Структура № ${structureId}, ${fromTime} — ${toTime}`, 'Блоки: заголовок, таблицы, кольцевые и розовые диаграммы, Парето, фигура человека, доли персонала, группированные столбцы', 'PDF-версия']} />
  ),
  interactive: ({ structureId, from, to, key }: Params) => (
    <ScreenPlaceholder title="Интерактивный отчёт" will={[key ? `Отчёт по ключу доступа ${key}` : `Структура № ${structureId}, ${from} — ${to}`, 'Плеер и таблица фотографии рабочего дня с переходом к каждой операции в видео', 'Ссылка и QR-код для просмотра без входа']} />
  ),
  calculator: () => (
    <ScreenPlaceholder title="Калькулятор производительности" will={['Тип производства и признак средней операции короче 10 секунд', 'Данные компании, расчёт экономии и график', 'Панели администратора: значения по умолчанию, оборудование, лицензия']} />
  ),
  models: ({ videoId }: Params) => (
    <ScreenPlaceholder title={`Обучение моделей по видео № ${videoId}`} will={['Таблица моделей с прогрессом, применением и удалением', 'Форма запуска обучения', 'Области видео: рисование прямоугольника на кадре']} />
  ),
  standLocations: ({ videoId }: Params) => (
    <ScreenPlaceholder title={`Разметка расположений по видео № ${videoId}`} will={['Расположения стендов и подвижных объектов', 'Кадр видео с отметками стендов и найденных людей']} />
  ),
  stands: ({ structureId }: Params) => (
    <ScreenPlaceholder title={`Стенды и базисы структуры № ${structureId}`} will={['Таблица стендов: имя, x, y', 'Форма добавления стенда или базиса']} />
  ),
  model: ({ modelId }: Params) => <ScreenPlaceholder title={`Модель № ${modelId}`} will={['Название модели и отчёт об обучении']} />,

  map: () => (
    <ScreenPlaceholder title="Редактор карты" will={['Карта с офлайн-подложкой и инструментами рисования дорог, участков, зон и объектов', 'Генерация и оптимизация дорог, отмена и повтор', 'Проекты и выгрузка чертежа']} />
  ),
  news: () => <ScreenPlaceholder title="Новости" will={['Карточки новостей: картинка, заголовок, текст, дата, ссылка']} />,
  services: () => <ScreenPlaceholder title="Услуги" will={['Услуги по анализу труда, нормированию и HR-консалтингу']} />,
  products: () => <ScreenPlaceholder title="Продукты" will={['Семь карточек продуктов со ссылкой «Перейти»']} />,
  hr: () => <ScreenPlaceholder title="HR: автоматизация HR-процессов" will={['Бесплатный демо-доступ к автоматизации HR-процессов', 'Принцип работы, решаемые задачи и примеры использования']} />,
  ai: () => <ScreenPlaceholder title="AI-аналитика видеопотока" will={['Описание аналитики, заявка на демо и пример отчёта в PDF']} />,
  evan: () => <ScreenPlaceholder title="Аналитика мероприятий" will={['Тепловая карта посещений, маршруты, метрики стендов', 'Независимые и зависимые камеры']} />,
  reportExample: () => <ScreenPlaceholder title="Пример отчёта" will={['Карусель из 7 страниц примера отчёта']} />,
};
