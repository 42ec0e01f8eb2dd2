import { Link } from 'wouter';

const services = [
  'Инструмент аналитики эффективности мероприятий',
  'Трекер задач',
  'Калькулятор оценки ресурсов',
  'Калькулятор смен',
  'Платформа автоматизированного анализа производительности труда',
  'Оценка персонала',
  'Нормирование труда',
  'Организация HR-процессов',
  'Разработка систем оплаты труда',
  'Мотивация',
  'Обучение',
  'Корпоративная культура',
  'HR-консалтинг',
];

/** spec 01 "/": mission, why us, services, ending in the contact form and footer. */
export function LandingScreen() {
  return (
    <div className="landing">
      <section className="hero">
        <h1>Норма рабочего времени — по видео, а не на глаз</h1>
        <p>
          Norma измеряет, как расходуется рабочее время, по записям камер на рабочих местах: разметчики отмечают операции, модели размечают остальное, а
          платформа строит фотографию рабочего дня, хронометраж, загрузку персонала и нормы.
        </p>
        <div className="actions">
          <Link href="/login" className="button">
            Войти в платформу
          </Link>
          <Link href="/calculator" className="button secondary">
            Рассчитать эффект
          </Link>
        </div>
      </section>
      <section className="why">
        <h2>Почему мы</h2>
        <ul className="facts">
          <li>
            <strong>21 000+</strong> сотрудников в исследованиях
          </li>
          <li>
            <strong>12</strong> отраслей
          </li>
          <li>
            <strong>&gt;95 %</strong> точность разметки
          </li>
          <li>
            <strong>50+</strong> научных публикаций
          </li>
          <li>Первые результаты — в течение квартала</li>
        </ul>
      </section>
      <section>
        <h2>Услуги</h2>
        <ul className="services">
          {services.map((service) => (
            <li key={service}>{service}</li>
          ))}
        </ul>
      </section>
      <section id="contact" className="contact">
        <h2>Связаться с нами</h2>
        <p className="muted">Форма обратной связи с проверкой «я не робот» появится здесь в следующем выпуске.</p>
      </section>
      <footer className="site-footer">© 2016–2023 Norma</footer>
    </div>
  );
}
