import { img } from './links';
import { Card, SitePage } from './SitePage';
import { ContactLink } from './ContactLink';

const STEPS = [
  { title: 'Кадры с камер и первичная разметка', text: 'Подключаем существующие камеры, разметчики отмечают операции на первых записях.' },
  { title: 'Анализ видео машинным обучением', text: 'Модели, обученные на вашей разметке, размечают остальное видео.' },
  { title: 'Фотография рабочего дня с автоматической аналитикой', text: 'Структура рабочего времени каждого сотрудника и рабочего места.' },
  { title: 'Итоговый отчёт с найденными резервами', text: 'Потери, перегрузка, недогрузка и что с ними делать.' },
  { title: 'Лучшее планирование', text: 'Численность, смены и нормы по измеренным данным, а не по оценкам.' },
];

const PROBLEMS = [
  'Непонятно, сколько людей действительно нужно подразделению',
  'Нормы устарели и не отражают реальные операции',
  'Перегрузка одних сотрудников при простоях других',
  'Споры о премиях и оплате без объективных данных',
  'Долгие и дорогие ручные замеры времени',
];

const CASES = [
  {
    title: 'Узкие специалисты',
    text: 'Инженеры, наладчики, лаборанты: какая доля времени уходит на профильную работу и где её съедают согласования.',
    picture: 'case-specialists',
  },
  { title: 'Рабочие', text: 'Сборка, упаковка, склад: фотография рабочего дня и хронометраж операций для норм и планирования смен.', picture: 'case-workers' },
  { title: 'Административный персонал', text: 'Офисные процессы: загрузка, дублирование функций и резервы численности.', picture: 'case-office' },
];

/** Spec 01 §1 «HR page»: free demo access, how it works, problems solved, use cases. */
export function HrScreen() {
  return (
    <SitePage
      testId="page-hr"
      title="HR-аналитика по видео"
      description="Бесплатный демо-доступ к автоматизации HR-процессов: фотография рабочего дня, машинное обучение и отчёт о резервах персонала."
      lead="Бесплатный демо-доступ к автоматизации HR-процессов: покажем резервы персонала на вашем видео. Эффективность HR-специалистов — выше на 75 %."
    >
      <p>
        <ContactLink>Получить бесплатный демо-доступ</ContactLink>
      </p>
      <section aria-labelledby="hr-how">
        <h2 id="hr-how">Как это работает</h2>
        <ol className="steps">
          {STEPS.map((step) => (
            <li key={step.title}>
              <strong>{step.title}</strong>
              <span>{step.text}</span>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="hr-problems">
        <h2 id="hr-problems">Какие задачи решаем</h2>
        <ul className="check-list">
          {PROBLEMS.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="hr-cases">
        <h2 id="hr-cases">Примеры использования</h2>
        <div className="card-grid">
          {CASES.map((item) => (
            <Card key={item.title} picture={img(item.picture)} title={item.title}>
              <p>{item.text}</p>
            </Card>
          ))}
        </div>
      </section>
    </SitePage>
  );
}
