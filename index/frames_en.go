package index

// framesEN lists English "frames": one specific, recurring thing people tell
// an assistant about their life (their coffee order, a broken bone, their
// landlord), with the words that show up when they talk about it. Frames sit
// between the broad topics of lexiconEN, which hundreds of facts share, and
// the synonym sets, which join only near-synonyms: two facts tagged with the
// same frame are candidates for each other even when they share no word ("I
// take my coffee black, no sugar" / "these days I want oat milk in my
// espresso").
//
// Format: one "name: word word ..." line per frame; lines starting with # are
// comments. Names are lowercase with hyphens. Words are lowercase, in base
// form, 6 to 25 per frame; a word may belong to several frames. Words pass
// through the same analysis as text (English Snowball stemming, stop words),
// so inflections are not listed, but derived words that stem differently
// are. A hyphenated word also adds its parts. Words that occur in almost any
// sentence are left out, since they would tag every fact with the frame.
const framesEN = `
# ---------------------------------------------------------------- work
employer: employer company firm employ employed employee corporation organisation startup agency join joined multinational payroll staff
job-title: title role position profession occupation career designation rank senior junior officer specialist
salary: salary salaried wage wages pay paid income earn earnings gross net annual hourly payslip paycheck raise
pay-raise: raise pay-rise rise increase salary bump negotiate negotiated review percent pay inflation adjustment earn
bonus: bonus bonuses commission incentive payout target performance shares equity stock options rsu
boss: boss manager supervisor head director micromanage micromanager managed reporting line-manager appraisal
colleagues: colleague colleagues coworker co-worker teammate teammates workmate workmates team department peer office
work-friend: colleague coworker workmate lunch drinks office friend team banter
working-hours: hours shift shifts overtime part-time full-time nine-to-five schedule rota workday workweek clock
night-shift: night nights shift shifts graveyard overnight nocturnal rota nightshift sleep daytime
shift-rota: rota roster shift shifts early late split rotating weekend swap cover
four-day-week: four-day compressed hours fridays friday part-time flexible schedule reduced nine-day fortnight
remote-work: remote remotely wfh home hybrid office onsite telecommute telework laptop video zoom teams
office-location: office headquarters hq building floor desk hot-desk campus coworking branch site relocated moved
commute: commute commuting commuter train bus tube subway drive driving traffic journey rush-hour minutes
freelance: freelance freelancer freelancing self-employed contractor client clients invoice invoices rate gig portfolio
side-gig: side hustle gig moonlight moonlighting extra income etsy tutoring uber deliveroo
promotion: promotion promoted senior lead title advance advancement role manager grade level
job-contract: contract permanent temporary fixed-term temp probation renewal renewed clause terms signed agency
notice-period: notice resign resignation resigned quit leaving handed period final exit
job-search: jobhunting applying applications application cv resume linkedin recruiter vacancy vacancies openings offer rejected
job-interview: interview interviews interviewed interviewer panel round recruiter assessment offer shortlisted hr callback
job-offer: offer offered accepted accept declined decline counteroffer package contract role
fired: fired sacked dismissed laid layoff layoffs redundancy redundant terminated severance unemployed
unemployment: unemployed jobless unemployment benefits dole jobseeker jobcentre career-break
retirement: retire retired retirement retiree pensioner retiring leaving
pension: pension pensions retirement annuity 401k contributions pot scheme state workplace employer
business-owner: business owner founded founder shop company employees customers turnover
startup: startup founder co-founder cofounder investors funding seed venture pitch product launch series
small-shop: shop store boutique cafe bakery stall market customers stock premises owner till
work-travel: business trip travel conference client site visit expenses abroad travelling
work-laptop: laptop computer monitor keyboard equipment provided issued company device screens dock
work-uniform: uniform overalls scrubs hi-vis apron badge dress code suit formal workwear
job-industry: industry sector field finance tech healthcare retail hospitality education manufacturing construction logistics media
teaching-job: teacher teaching teach school class pupils students classroom lessons subject headteacher
nursing-job: nurse nursing ward hospital patients shifts nhs midwife matron clinic healthcare
software-job: developer programmer software engineer coding code backend frontend devops python javascript stack
doctor-job: doctor physician gp surgeon consultant registrar resident junior hospital clinic practice medicine
retail-job: retail shop store cashier till customers shelf stacking supermarket sales assistant floor
hospitality-job: waiter waitress bartender barista chef kitchen restaurant bar cafe pub service tips hospitality
driver-job: driver driving delivery courier lorry truck van taxi bus route haulage
lawyer-job: lawyer solicitor attorney barrister paralegal law firm legal partner cases court clients
trades-job: electrician plumber carpenter builder joiner plasterer roofer mechanic welder trade apprenticeship tools
academic-job: lecturer professor researcher postdoc academic faculty tenure department university lab research
manager-role: manage managing manager team reports direct headcount leadership leader lead
work-project: project projects deadline deadlines deliverable launch milestone client workload sprint release
work-meeting: meeting meetings standup stand-up agenda minutes conference calendar invite sync
workload: workload overworked busy stress stressed burnout swamped deadlines pressure exhausted overtime
burnout: burnout burnt burned exhausted stress sick-leave overwhelmed overworked breakdown drained
annual-leave: leave holiday holidays annual allowance booked pto vacation entitlement accrued carry
sick-leave: sick leave sickness absence doctor note fit signed ill certificate
parental-leave: maternity paternity parental leave shared baby return returning pay statutory
work-review: appraisal review performance feedback objectives goals rating evaluation pip
work-training: training course onboarding induction workshop mentoring mentor learning development upskilling
internship: intern internship placement trainee graduate scheme summer experience apprentice apprenticeship
career-change: career change switch switching retrain retraining field pivot profession transition
volunteering: volunteer volunteering volunteered charity unpaid shelter helper community cause
union: union trade strike striking picket membership rep representative dispute ballot
work-visa: visa permit sponsorship sponsor sponsored residence immigration employer application
workplace-conflict: conflict dispute grievance complaint harassment bullying hr tribunal disciplinary toxic
job-satisfaction: satisfaction fulfilling rewarding unfulfilling dread dead-end motivated demotivated meaningful boring unhappy
salary-currency: salary gross net pounds dollars euros thousand annual
# ---------------------------------------------------------------- home
landlord: landlord landlady rent tenant tenancy lease letting agent deposit owner property flat
rent: rent rental rented renting monthly increase hike lease tenancy expensive
mortgage: mortgage remortgage fixed variable rate interest lender repayments deposit equity bank homeowner loan
home-buying: buy buying bought purchase completion exchange offer survey conveyancing solicitor homeowner property
home-selling: sell selling sold listing estate agent viewings buyers price market offer
flatmates: flatmate flatmates roommate roommates housemate housemates share sharing houseshare flatshare lodger
neighbours: neighbour neighbours neighbor neighbors next-door upstairs downstairs street noisy across
noisy-neighbours: noise noisy loud music party parties stomping footsteps upstairs downstairs complain complaint thin walls
home-type: house flat apartment studio bungalow cottage terraced semi-detached detached townhouse condo maisonette loft duplex
home-size: bedroom bedrooms bed square footage spacious room rooms
home-floor: floor storey ground top penthouse basement lift elevator stairs high-rise
balcony: balcony terrace patio deck veranda rooftop roof view plants overlooking
garden: garden yard lawn backyard front patio shed fence hedge flowerbed allotment grass
moving-house: move moving moved relocate relocating removals movers boxes packing unpacking van settle
furniture: furniture sofa couch armchair table chairs bed wardrobe dresser bookshelf shelves desk drawers ikea
bed-mattress: bed mattress pillow pillows duvet sheets firm soft memory-foam frame double king single
home-repairs: repair repairs fix fixed broken leak leaking boiler plumber electrician handyman maintenance damp mould
boiler-heating: boiler heating radiator radiators central thermostat heat pump gas warm cold engineer service
home-renovation: renovation renovate renovating refurbishment extension builders remodel redecorate rewire loft conversion knock
kitchen-renovation: kitchen cabinets worktop countertop units renovation appliances tiles splashback
bathroom: bathroom shower bath bathtub toilet sink tiles en-suite ensuite wet-room loo
decorating: paint painting painted wallpaper decorate decorating colour walls feature wall redecorate ceiling
cleaning: clean cleaning cleaned tidy tidying hoover hoovering vacuum mop dusting chores cleaner spotless
cleaner-help: cleaner cleaning lady housekeeper maid weekly fortnightly comes agency
laundry: laundry washing wash washer dryer tumble ironing iron clothes detergent load
dishes: dishes dishwasher washing-up sink plates wash dry load unload rinse
bins: bin bins rubbish trash garbage recycling collection compost food waste wheelie dump
chores-split: chores housework split share turns rota cooking cleaning partner
home-security: alarm burglar burglary break-in locks lock cctv doorbell ring camera safe security intruder
keys: keys key spare lock locked locksmith door fob lost copy
smart-home: smart alexa hue bulbs lights thermostat nest speaker hub automation plug
internet-home: wifi broadband internet router fibre speed provider connection mbps outage ethernet
utilities: electricity gas water bills supplier utility meter energy tariff provider direct
energy-bills: energy bills electricity gas tariff price cap supplier usage meter smart
solar: solar panels battery installed roof energy inverter generation
council-tax: council tax band rates property municipal local discount
home-insurance: home insurance contents buildings policy claim cover premium flood theft
damp-mould: damp mould mold condensation dehumidifier black walls humid ventilation leak
pests: mice mouse rats rat cockroaches ants bedbugs fleas pest control exterminator infestation wasps
garage-storage: garage storage loft attic shed basement cellar boxes clutter unit
declutter: declutter decluttering clutter tidy minimalism donate charity sort clear-out throw
housewarming: housewarming party welcome guests warming moved
hometown: hometown grew raised born childhood native village town originally birthplace
current-city: live living city town area neighbourhood based reside located district suburb relocated moved
neighbourhood: neighbourhood neighborhood area street local quiet safe busy district shops park community
house-plants: houseplants plants plant pot pots monstera succulent cactus fern watering repot leaves
air-conditioning: air-conditioning aircon ac fan fans cooling heatwave hot portable unit
fireplace: fireplace log burner wood stove chimney fire firewood logs sweep
home-office: home office study desk chair spare room setup workspace monitor
parking-home: parking driveway space permit garage street resident allocated spot
post-delivery: post mail letters parcel parcels delivery postman letterbox mailbox delivered courier
homeowners-association: hoa association management service charge ground rent freeholder leaseholder building committee
student-housing: dorm dormitory halls residence student accommodation campus housing room
living-with-parents: live parents childhood bedroom moved saving house boomerang
housing-search: searching viewing viewings listings rightmove zoopla apartment search
eviction: evict eviction evicted notice section possession court landlord
# ---------------------------------------------------------------- family
mother: mother mum mom mummy mama parent maternal mothers motherhood
father: father dad daddy papa parent paternal fathers fatherhood
parents-general: parents folks mum dad mother father parent elderly retired
siblings: sibling siblings brother brothers sister sisters older younger twin eldest youngest middle
brother: brother bro older younger half-brother stepbrother twin
sister: sister sis older younger half-sister stepsister twin
grandparents: grandparent grandparents grandmother grandfather grandma grandpa granny nan gran grandad
children: child children kid kids son daughter sons daughters youngest eldest oldest
son: son boy sons eldest youngest lad boys
daughter: daughter girl daughters eldest youngest girls
baby: baby newborn infant nappies diapers feeding crying sleepless pram cot weaning
toddler: toddler tantrums potty nursery terrible twos buggy
teenager: teenager teen teenage adolescent puberty moody phone gcses sixteen fifteen
grandchildren: grandchild grandchildren grandson granddaughter grandkids grandkid grandparent
aunt-uncle: aunt auntie uncle aunts uncles niece nephew nieces nephews
cousins: cousin cousins second removed relatives relative kin extended
in-laws: in-laws mother-in-law father-in-law brother-in-law sister-in-law inlaws spouse
step-family: stepmother stepfather stepmum stepdad stepson stepdaughter stepchildren blended step-parent stepbrother stepsister
adoption: adopt adopted adoption adoptive foster fostering birth parents agency placement
family-illness: ill illness sick hospital caring carer diagnosis diagnosed hospice care parent relative
death-grief: died death passed away funeral grief grieving loss mourning bereavement memorial
funeral: funeral burial buried cremation cremated wake eulogy coffin cemetery grave memorial
family-reunion: reunion family gathering relatives get-together cousins whole clan
family-visit: visit visiting stay staying parents travel family
caring-parent: care carer caring elderly parent dementia nursing care-home
childcare: childcare nursery daycare nanny childminder babysitter babysitting au-pair after-school pickup
school-run: school run drop-off pickup pick collect children gates
kids-activities: swimming lessons football ballet karate scouts brownies activities club clubs practice
kids-school: school class teacher reception primary secondary grade kindergarten ofsted
parenting: parenting parent raise raising discipline bedtime routine screen homework mum dad
pregnancy: pregnant pregnancy expecting due trimester bump midwife scan ultrasound sickness baby
birth: birth born labour labor delivery delivered c-section caesarean hospital newborn induced pregnant pregnancy arrived
fertility: fertility ivf conceive conceiving infertility embryo egg clinic ovulation miscarriage
miscarriage: miscarriage miscarried lost pregnancy loss ectopic stillbirth grief
family-size: children kids only-child siblings family large
birthday-family: birthday birthdays turned turning celebrate celebration cake party present gift candles
family-tree: ancestry ancestors genealogy heritage descended roots dna lineage
family-estrangement: estranged estrangement contact speak feud rift
family-money: inheritance inherit inherited estate executor probate legacy
godparent: godparent godmother godfather godson goddaughter godchild christening baptism
twins: twin twins identical fraternal triplets brother sister
only-child: only-child siblings none brothers sisters lonely
# ---------------------------------------------------------------- relationships
partner: partner boyfriend girlfriend spouse significant together couple relationship bf gf
husband: husband hubby spouse married wedded hubs
wife: wife spouse married wedded missus wifey
dating: dating date dates tinder bumble hinge apps match matched swiping single singles
relationship-status: single relationship married divorced widowed separated engaged committed status unattached
relationship-length: together anniversary dating met long-term relationship decade
anniversary: anniversary anniversaries together celebrate married wedding dinner
engagement: engaged engagement fiance fiancee proposed proposal ring propose knee
wedding: wedding weddings marry married marrying ceremony reception venue bride groom vows honeymoon
wedding-planning: venue caterer guest invitations dress photographer florist budget seating
wedding-guest: guest invited invite bridesmaid usher speech maid honour attending
honeymoon: honeymoon newlyweds married trip romantic getaway
marriage: marriage married spouse husband wife matrimony union marital
divorce: divorce divorced divorcing separated separation split custody settlement lawyer ex alimony husband wife spouse marriage
breakup: breakup broke split dumped ended relationship heartbroken heartbreak single ex girlfriend boyfriend partner
ex-partner: ex ex-husband ex-wife ex-boyfriend ex-girlfriend former previous
co-parenting: custody co-parenting alternate kids ex child maintenance access
moving-in-together: move together cohabit cohabiting living moved shared partner
long-distance: long-distance distance apart abroad visits flights video miles separated
couples-therapy: counselling counseling couples therapy therapist relationship marriage problems
cheating: cheat cheated cheating affair unfaithful infidelity betrayed trust lied
friends: friend friends mate mates pal pals buddy bestie friendship group circle
best-friend: best friend bff bestie closest oldest childhood
friend-falling-out: fell argument fight fought friendship ended drifted rift feud estranged
new-friends: friends friendships lonely meet meetup join club social circle making
loneliness: lonely loneliness alone isolated isolation friends nobody company miss
social-life: social nights drinks pub party parties catch outings
friend-moved: friend moved away abroad miss distance
crush: crush fancy attracted feelings admire colleague
sexuality: gay lesbian bisexual bi straight queer pansexual asexual sexuality orientation lgbt lgbtq
gender-identity: gender trans transgender nonbinary non-binary identity transition transitioning
pronouns: pronouns pronoun misgender misgendered nonbinary gender identify refer
roommate-conflict: roommate flatmate argument dishes mess rent share conflict messy
# ---------------------------------------------------------------- pets
pet-dog: dog dogs puppy pup pooch doggy hound canine rescue adopted
pet-cat: cat cats kitten kitty feline moggy tabby indoor outdoor rescue adopted
pet-rabbit: rabbit rabbits bunny bunnies hutch hay lop warren
pet-hamster: hamster hamsters gerbil gerbils cage wheel rodent syrian dwarf
pet-guinea-pig: guinea pig pigs cavy cavies hutch hay squeak
pet-fish: fish goldfish aquarium tank tropical betta guppies filter koi pond
pet-bird: bird birds parrot budgie budgerigar cockatiel canary parakeet cage perch feathers
pet-reptile: reptile lizard gecko snake python tortoise turtle terrarium vivarium heat lamp chameleon iguana
pet-horse: horse pony horses ponies stable stables livery riding saddle mare gelding stallion hay
chickens: chickens hens hen coop eggs laying rooster cockerel flock backyard
pet-rat-mouse: rat rats mouse mice ferret ferrets chinchilla degu rodent cage
dog-breed: breed labrador retriever spaniel terrier poodle collie beagle dachshund bulldog husky shepherd cockapoo labradoodle whippet greyhound
cat-breed: breed siamese persian maine-coon ragdoll bengal sphynx tabby tortoiseshell ginger moggy
pet-vet: vet veterinarian vets clinic checkup appointment surgery jabs vaccinations booster neutered spayed bill
pet-illness: ill sick poorly vomiting diarrhoea limping infection medication vet diagnosed kidney thyroid
pet-food: food kibble wet dry biscuits tins pouches raw diet feeding fed treats bowl
pet-treats: treats treat chews chew bones dental sticks snacks rewards
dog-walking: walk walks walking walker lead leash park off-lead fetch ball twice
dog-walker: walker walking sitter daycare kennel kennels boarding comes midday
pet-sitter: sitter sitting kennels cattery boarding holiday away care feeding
pet-grooming: grooming groomer groom bath trim clipping haircut brushing shedding coat nails claws
pet-age: age old puppy kitten senior elderly geriatric young aged birthday lifespan
pet-name: name named called calls nickname renamed pet
pet-insurance: pet insurance policy vet bills cover premium claim lifetime
pet-training: training trained train obedience puppy class sit stay recall commands trainer clicker housetrained
pet-behaviour: behaviour behavior barking biting scratching aggressive anxious separation anxiety chewing jumping pulling reactive
pet-death: died euthanised euthanasia passed rainbow bridge grieving buried
pet-adoption: adopt adopted rescue shelter rehome rehomed rspca breeder rehoming foster
pet-neuter: neutered spayed castrated neuter spay snipped
flea-worm: flea fleas worm worming wormer tick ticks treatment spot-on frontline
litter-tray: litter tray box scoop cat clumping
cat-flap: flap indoor outdoor hunting mice birds roam garden
pet-weight: overweight weight diet fat chunky portion vet slim
pet-microchip: microchip microchipped chip tag collar registered lost found
pet-allergy: allergy allergic dander fur hypoallergenic sneezing itchy
pet-toys: toys toy ball squeaky laser wand chew rope
dog-park: park off-lead fetch dogs socialise field
pet-travel: pet passport travel carrier crate kennels abroad quarantine
horse-riding: riding ride rider horse pony lessons hack hacking dressage jumping show-jumping equestrian
# ---------------------------------------------------------------- health conditions
broken-bone: broken break fracture fractured cast plaster splint sling x-ray heal healed orthopaedic crutches wrist ankle arm leg
sprain: sprain sprained twisted ankle wrist strapped swollen swelling ligament ice bandage
back-pain: back pain backache lower slipped disc sciatica spine lumbar ache aching posture
neck-pain: neck stiff shoulder tension crick whiplash ache sore pain
knee-injury: knee knees acl meniscus ligament cartilage kneecap torn surgery brace arthroscopy
shoulder-injury: shoulder rotator cuff frozen dislocated dislocation tendon torn impingement
headache: headache headaches migraine migraines aura throbbing tension head ache painkillers
asthma: asthma asthmatic inhaler inhalers wheezing breathless attack puffer ventolin salbutamol preventer
diabetes: diabetes diabetic insulin blood sugar glucose hba1c metformin pump monitor hypo
blood-pressure: blood pressure hypertension systolic diastolic cuff amlodipine ramipril
cholesterol: cholesterol statins statin ldl hdl lipids levels fatty
heart-condition: heart cardiac arrhythmia palpitations afib angina cardiologist pacemaker ecg attack murmur
thyroid: thyroid hypothyroidism hyperthyroidism underactive overactive levothyroxine tsh goitre hashimoto
cold-flu: cold flu cough sore throat runny nose sneezing fever temperature congested blocked poorly
covid: covid coronavirus positive tested test isolation isolating symptoms lateral-flow
infection: infection antibiotics bacterial viral infected uti chest ear tonsillitis
stomach-problems: stomach tummy ache nausea vomiting sick diarrhoea bug indigestion heartburn reflux cramps
ibs: ibs irritable bowel bloating cramps constipation gut fodmap flare
acid-reflux: reflux heartburn acid gerd indigestion omeprazole antacid gaviscon burning
skin-condition: eczema psoriasis dermatitis rash itchy dry skin flare dermatologist cream steroid
acne: acne spots pimples breakouts skin blemishes isotretinoin accutane dermatologist
hay-fever: hay fever hayfever pollen sneezing itchy eyes antihistamine season spring allergic
food-allergy: allergy allergic allergies nut nuts peanut shellfish anaphylaxis epipen reaction hives
lactose-intolerance: lactose intolerant intolerance dairy milk lactase bloated
gluten: gluten coeliac celiac wheat bread intolerance
drug-allergy: allergic penicillin allergy reaction medication antibiotics rash
arthritis: arthritis rheumatoid osteoarthritis joints joint stiff swollen inflammation rheumatologist
chronic-pain: chronic pain fibromyalgia flare flare-ups constant pain-management
chronic-fatigue: fatigue tired exhausted cfs chronic energy pacing crash
autoimmune: autoimmune lupus crohns colitis sclerosis immune flare remission
cancer: cancer tumour tumor chemo chemotherapy radiotherapy oncologist biopsy remission malignant benign scan
surgery: surgery operation operated surgeon anaesthetic anesthesia recovery stitches scar hospital procedure keyhole
hospital-stay: hospital admitted ward discharged stay bed emergency ambulance inpatient surgery
emergency: emergency er ambulance paramedics urgent collapsed accident casualty
concussion: concussion head injury bumped knocked dizzy hit fell
cuts-burns: cut burn burned stitches scar bandage plaster wound blister graze scald
injury-general: injury injured hurt accident fell fall pulled strained recovering
physiotherapy: physio physiotherapy physiotherapist exercises rehab rehabilitation stretches sessions massage mobility
chiropractor: chiropractor osteopath osteopathy adjustment manipulation spine massage therapist sports-massage
dentist: dentist dental teeth tooth checkup hygienist filling fillings cavity crown
tooth-problem: toothache tooth wisdom extraction extracted root canal abscess filling crown cracked chipped dentist dental
braces: braces orthodontist invisalign aligners retainer straighten teeth brace
eye-test: eye test optician optometrist prescription eyesight vision sight glasses lenses
glasses: glasses specs spectacles frames lenses varifocals bifocals prescription
contact-lenses: contacts contact lenses dailies monthlies glasses
eyesight-condition: short-sighted long-sighted myopia astigmatism cataract glaucoma laser lasik blind
hearing: hearing deaf tinnitus hearing-aid audiologist ear ears loss earwax
ear-problems: ear ears earache infection blocked wax syringing ent
sleep-problems: insomnia sleep sleeping awake sleepless restless nights wake waking tired melatonin
sleep-apnea: apnea apnoea snoring snore cpap breathing sleep
snoring: snoring snore snores snorer earplugs loud
nightmares: nightmares dreams night terrors sleepwalking sleep
weight: weight weigh kilos kg pounds lbs stone heavier lighter overweight bmi scales
weight-loss: lose losing lost weight diet dieting slimming weight-watchers calorie kilos
weight-gain: gain gained weight bulking underweight heavier
height: tall height short metres cm feet inches foot
medication: medication medicine meds pills tablets prescription prescribed dose dosage pharmacy
dose-change: dose dosage increased reduced lowered doubled milligrams mg tablet twice halved
painkillers: painkillers paracetamol ibuprofen aspirin codeine tramadol naproxen co-codamol painkiller
antidepressants: antidepressant antidepressants sertraline fluoxetine citalopram prozac ssri mirtazapine venlafaxine
contraception: contraception contraceptive pill coil iud implant condoms injection mirena
hrt-menopause: menopause perimenopause hrt hot flushes flashes oestrogen estrogen patch gel
periods: period periods menstrual cramps pms cycle heavy irregular tampons pads endometriosis pcos
vitamins: vitamins vitamin supplement supplements multivitamin iron b12 omega magnesium zinc
vaccination: vaccine vaccinated vaccination jab jabs booster shot flu immunisation tetanus
prescription: prescription repeat refill pharmacy chemist pharmacist renewal gp
gp-doctor: gp doctor physician surgery appointment registered clinic
health-insurance: health insurance private bupa medical cover policy premium nhs
blood-test: blood test tests results bloods levels iron ferritin b12 anaemia anemic
anaemia: anaemia anemia anaemic iron deficiency ferritin tired pale supplements
mental-health: mental health depression anxiety anxious depressed mood panic ocd ptsd
depression: depression depressed mood sad hopeless antidepressants motivation
anxiety: anxiety anxious panic attacks worry worried nervous overthinking
adhd: adhd attention hyperactivity diagnosed ritalin methylphenidate elvanse neurodivergent
autism: autism autistic aspergers spectrum neurodivergent diagnosis sensory meltdown stimming
therapy: therapy therapist counselling counsellor counseling cbt psychotherapy psychologist sessions
psychiatrist: psychiatrist psychiatry psychiatric diagnosis medication bipolar schizophrenia
addiction: addiction addicted recovery rehab sober sobriety relapse aa meetings
smoking: smoke smoking smoker cigarettes cigs quit quitting nicotine patches gum tobacco
vaping: vape vaping vaper e-cigarette nicotine pods
disability: disabled disability wheelchair mobility impairment accessible badge cane stick
wheelchair: wheelchair mobility scooter ramp accessible wheelchair-user powerchair
pregnancy-health: pregnant antenatal midwife scan folic sickness gestational due trimester nausea
breastfeeding: breastfeeding breastfed nursing formula bottle feeding pump expressing
migraine: migraine migraines aura triptan sumatriptan trigger nausea
allergy-general: allergy allergies allergic antihistamine cetirizine loratadine reaction hives
hormone-therapy: testosterone oestrogen hormones hormone hrt blockers transition
kidney-liver: kidney kidneys stones liver gallbladder gallstones dialysis
epilepsy: epilepsy epileptic seizure seizures anticonvulsant neurologist keppra
stroke: stroke mini tia paralysed speech rehabilitation
varicose-veins: varicose veins circulation swollen legs compression stockings
hernia: hernia inguinal umbilical mesh bulge hiatal
long-covid: covid fatigue brain fog breathless viral lingering
hand-wrist: carpal tunnel wrist hand numb tingling rsi tendonitis splint
foot-problems: foot feet plantar fasciitis heel bunion insoles podiatrist verruca ingrown toenail
hair-loss: hair loss balding bald receding thinning alopecia minoxidil finasteride transplant
sunburn-skin: sunscreen sunburn sunblock spf moles mole melanoma tan
checkup: checkup check-up physical annual screening health check
colonoscopy-screening: screening smear mammogram colonoscopy prostate psa cervical scan
mri-scan: mri scan ct ultrasound x-ray results imaging radiology referral
specialist-referral: referral referred specialist consultant appointment clinic
waiting-list: waiting list nhs referral operation backlog wait queue
# ---------------------------------------------------------------- food and drink
coffee-order: coffee espresso latte cappuccino americano decaf milk oat soy sugar sweetener black cream barista mug
coffee-habit: coffee caffeine cups cup morning espresso brew cafetiere moka machine beans grinder pods nespresso
tea: tea teas cuppa earl grey green herbal chamomile peppermint builders teabag kettle loose-leaf rooibos
caffeine: caffeine caffeinated decaf coffee tea energy drinks jittery
vegetarian: vegetarian veggie meat fish pescatarian eat tofu quorn
vegan: vegan veganism dairy animal products eggs honey cheese
pescatarian: pescatarian fish seafood salmon tuna meat
keto-lowcarb: keto ketogenic low-carb carbs carbohydrates atkins paleo bread pasta
fasting: fasting intermittent skip skipping breakfast window eating ramadan omad
calorie-counting: calories calorie counting myfitnesspal tracking macros protein deficit
protein: protein shakes shake whey powder grams macros muscle chicken
breakfast: breakfast cereal porridge oats toast eggs granola yoghurt muesli croissant pancakes bacon morning
lunch: lunch sandwich salad meal deal packed lunchbox canteen soup wrap leftovers midday
dinner: dinner supper meal tea cook cooked table eat
snacks: snack snacks snacking crisps chips nuts biscuits chocolate fruit bars nibble peckish
sweets-sugar: sweets candy chocolate sugar sugary dessert desserts cake sweet tooth
junk-food: junk takeaway mcdonalds burger burgers pizza kebab fried greasy
takeaway: takeaway takeout delivery deliveroo ubereats order ordered chinese indian pizza
cooking: cook cooking cooked recipe recipes kitchen chef homemade meals dishes bake
baking: bake baking baked cake cakes bread sourdough biscuits cookies oven pastry flour
meal-prep: meal prep batch cooking lunches containers sunday freeze freezer portions
favourite-food: foodie dish comfort cuisine delicious tasty craving cravings yummy
favourite-cuisine: cuisine italian indian thai chinese japanese mexican french greek spicy korean
spicy-food: spicy spice chilli chili hot heat curry jalapeno mild
sushi-japanese: sushi sashimi ramen japanese miso tempura udon bento
pizza-pasta: pizza pasta italian spaghetti lasagne carbonara margherita pepperoni
meat-eating: meat steak beef chicken pork lamb carnivore bacon sausages burger
fruit-veg: fruit vegetables veg greens salad apples bananas berries broccoli
disliked-food: dislike mushrooms olives coriander cilantro picky fussy eater gross
picky-eater: picky fussy eater eats plain beige texture refuses
alcohol: alcohol drink drinking drinker booze beer wine spirits units sober teetotal
wine: wine rose prosecco champagne bottle vineyard sommelier merlot sauvignon
beer: beer ale lager ipa pint pints craft stout cider brewery pub
spirits-cocktails: gin vodka whisky whiskey rum tequila cocktail cocktails martini negroni spritz
sobriety: sober sobriety teetotal dry january quit drinking abstain
water-intake: water hydration hydrated litres glasses bottle drink thirsty
soft-drinks: soda fizzy coke cola pepsi lemonade juice squash
smoothies-juice: smoothie smoothies juice juicing blender fruit
groceries: groceries grocery shopping supermarket tesco sainsburys aldi lidl waitrose asda trolley
grocery-delivery: delivery online ocado order slot groceries weekly shop
restaurants: restaurant restaurants eating dining dine booking reservation menu michelin
cafe-habit: cafe coffee-shop starbucks costa pret regular barista
cooking-equipment: air-fryer airfryer slow cooker instant pot blender oven hob stove microwave
diet-general: diet eat eating healthy unhealthy nutrition nutritionist balanced clean
food-intolerance: intolerance intolerant sensitive bloating dairy gluten fodmap trigger
halal-kosher: halal kosher pork religious dietary haram
cooking-skill: cook cooking burn beginner learning recipes skills chef kitchen
grilling-bbq: barbecue bbq grill grilling charcoal smoker burgers sausages
eating-out-budget: eat eating cheap budget splurge restaurants dining
meals-frequency: meals meal skip skipping eat grazing
late-eating: late night snacking midnight fridge eating
chocolate: chocolate cocoa cadbury lindt chocoholic truffles
cheese: cheese cheddar brie mozzarella parmesan feta goat
bread: bread loaf sourdough toast baguette wholemeal rye bakery
eggs: eggs egg scrambled fried poached boiled omelette
# ---------------------------------------------------------------- schedules and routines
wake-up-time: wake waking alarm morning early rise riser oclock snooze 6am 7am 5am
bedtime: bed bedtime sleep asleep night pm midnight late owl early lights
sleep-hours: sleep sleeper hours rested shut-eye oversleep overslept sleeping
morning-routine: morning routine shower breakfast coffee alarm commute meditation journal
evening-routine: routine wind unwind reading bath bed relax
nap: nap naps napping siesta afternoon snooze doze
gym-days: gym monday tuesday wednesday thursday friday saturday sunday sessions workout mornings
weekly-schedule: mondays tuesdays wednesdays thursdays fridays saturdays sundays schedule
weekend-routine: weekend weekends saturday sunday lie-in brunch chores errands
appointment: appointment appointments booked booking scheduled rescheduled cancelled slot clinic
meeting-schedule: meeting meetings standup weekly monthly recurring calendar
class-schedule: class classes lesson lessons lecture lectures course timetable semester term
deadline: deadline deadlines due submit submission overdue extension
calendar: calendar diary planner outlook events reminders schedule
reminder: remind reminder reminders notify notification alarm forget forgot
routine-habits: habit habits routine consistent daily streak discipline
productivity: productive productivity procrastinate procrastination focus pomodoro tasks organised
time-zone: timezone time-zone gmt bst est pst utc cet
# ---------------------------------------------------------------- education
school: school pupil pupils teacher class classmates primary secondary grade uniform
school-subjects: subjects maths math science history geography physics chemistry biology
university: university uni college campus student students undergraduate fresher semester halls
degree: degree bachelors ba bsc ma msc masters phd graduated graduate honours dissertation
major-subject: major majoring studying study subject course degree minor field
phd-thesis: thesis dissertation phd supervisor viva research chapter defend defense submitted masters
exams: exam exams test tests revision revising revise studying finals midterms pass passed failed
exam-results: results grades grade score scored passed failed distinction
school-qualifications: gcse gcses a-levels alevels sats baccalaureate diploma ged highers
online-course: course courses online coursera udemy edx module bootcamp certificate mooc enrolled
certification: certification certificate certified certs exam accredited qualification aws cisco
professional-qualification: qualification qualified chartered accountant cpa acca cima exam
student-loan: student loan loans tuition fees finance repayment grant bursary scholarship
scholarship: scholarship bursary grant funded funding award fellowship
homework: homework assignment assignments essay essays coursework project due
teacher-tutor: tutor tutoring tutored private lessons coaching teacher mentor
learning-to-code: coding programming learn learning python javascript bootcamp code tutorial beginner
studying-abroad: abroad exchange erasmus semester study overseas
graduation: graduation graduate graduated graduating ceremony gown cap diploma
dropout: dropped quit dropout drop withdrew deferred gap
gap-year: gap backpacking travel break deferred university
school-application: apply application applications ucas admission admitted accepted rejected offer personal statement
kids-exams: sats eleven-plus 11-plus gcses mocks exams revision grades
research-paper: paper papers publish published journal publication conference peer review
night-school: classes adult education night school part-time course
library: library libraries librarian borrow borrowed loans overdue
teacher-training: pgce teacher training qualified trainee placement
# ---------------------------------------------------------------- hobbies
piano: piano pianist keyboard grade scales chopin lessons sheet music practise
guitar: guitar guitarist acoustic bass strings chords fender strum amp pedal riff
violin: violin violinist fiddle bow strings viola orchestra suzuki
cello: cello cellist bow strings double-bass orchestra quartet
drums: drums drummer drumkit kit percussion cymbals sticks snare
wind-instrument: flute clarinet saxophone sax oboe bassoon trumpet trombone horn recorder
ukulele: ukulele uke strumming chords strings soprano
singing: singing singer sing vocal vocals voice lessons karaoke soprano alto tenor
choir: choir chorus singing rehearsal concert choral harmony soprano alto tenor bass
band: band gig gigs bandmates rehearsal jam covers
orchestra: orchestra symphony ensemble concert conductor rehearsals amateur
music-lessons: lessons teacher practise practice grade exam instrument learning
music-production: producing production ableton daw beats mixing synth synthesiser dj djing
painting: painting paint painter watercolour watercolor acrylic oil canvas brushes easel portrait landscape
drawing: drawing draw sketch sketching sketchbook pencil charcoal illustration doodle
digital-art: digital art procreate ipad illustration tablet wacom animation
photography: photography photographer photo photos camera lens dslr mirrorless canon nikon sony shoot editing
film-photography: film analogue 35mm darkroom developing rolls polaroid
gardening: gardening garden gardener plants planting seeds weeding compost pruning borders perennials
vegetable-growing: allotment vegetables veg grow growing tomatoes potatoes courgettes raised beds greenhouse harvest
reading-general: reading read reader books book novel novels bookworm pages
reading-genre: fiction nonfiction non-fiction fantasy sci-fi thriller crime mystery romance biography history horror literary
book-club: book club reading group monthly discuss members
knitting: knitting knit knitter yarn wool needles crochet pattern scarf jumper
sewing: sewing sew machine fabric quilting quilt dressmaking patterns embroidery cross-stitch
crafts: crafts crafting craft diy handmade pottery ceramics candle jewellery
pottery: pottery ceramics clay wheel throwing glaze kiln potter
woodworking: woodworking woodwork carpentry wood lathe furniture workshop tools whittling
board-games: board games boardgames catan monopoly scrabble chess tabletop dice cards
chess: chess chessboard grandmaster elo rating openings lichess tournament checkmate
card-games: cards card poker bridge blackjack rummy deck
rpg-tabletop: dungeons dragons dnd campaign dungeon master tabletop roleplaying warhammer
video-games: games gaming gamer playstation ps5 xbox nintendo steam pc console
pc-gaming: pc gaming steam rig graphics gpu mods
game-titles: minecraft fortnite zelda fifa skyrim pokemon
puzzles: puzzles puzzle jigsaw crossword sudoku wordle riddles
writing-hobby: writing writer novel poetry poems stories fiction manuscript blog journaling
journaling: journal journaling diary bullet gratitude writing
blogging: blog blogging blogger substack newsletter readers
youtube-creator: youtube channel videos vlog vlogging subscribers creator content editing upload
podcast-host: podcast podcasting host episodes recording guests microphone
collecting: collect collecting collector collection stamps coins vinyl records cards antiques
vinyl: vinyl records record player turntable lp lps albums
birdwatching: birdwatching birding birds binoculars twitcher species
fishing: fishing angling angler fish rod reel carp tackle bait
hunting: hunting hunter shooting deer rifle shotgun
hiking: hiking hike hikes walking hillwalking trail trails mountains boots fells peaks ramble rambling
camping: camping camp tent campsite caravan glamping campervan
astronomy: astronomy telescope stars stargazing planets sky observatory
cars-hobby: classic cars car restoration motorsport f1 formula rally
model-building: models model kits lego trains railway airfix miniatures
lego: lego bricks technic minifigures afol moc
dancing: dance dancing dancer salsa ballet tango ballroom swing hip-hop lessons
theatre-acting: theatre acting actor amateur drama rehearsals stage musical audition
improv-comedy: improv comedy stand-up standup comedian mic sketch
meditation: meditation meditate mindfulness headspace calm breathing retreat
volunteering-hobby: volunteer volunteering charity shop fundraising steward
cooking-hobby: cooking recipes cuisine baking chef foodie cookbook
cinema-going: cinema films movies watch screenings imax odeon
museums-galleries: museum museums gallery galleries exhibition exhibitions art
travel-hobby: travel travelling traveller countries explore backpacking trips
geocaching: geocaching cache caches treasure hunt gps
magic-tricks: magic tricks magician cards illusion sleight
calligraphy: calligraphy handwriting fountain pen ink nib brush-lettering
origami: origami paper folding cranes fold papercraft
genealogy-hobby: genealogy ancestry records ancestors census ancestry-dna
# ---------------------------------------------------------------- sport
running: run running runner jog jogging km miles pace parkrun trainers route
marathon: marathon half-marathon half 10k 5k race training pb ultra
cycling: cycling cycle cyclist bike bicycle ride riding sportive strava peloton miles
mountain-biking: mountain biking mtb trails downhill singletrack
swimming: swim swimming swimmer pool lengths laps front-crawl breaststroke backstroke lido goggles
open-water: water wild swimming lake sea wetsuit dip
gym: gym workout workouts weights lifting training membership sessions fitness
weightlifting: weightlifting lifting squat squats deadlift bench powerlifting barbell reps pr
personal-trainer: trainer pt coach sessions programme program training
yoga: yoga yogi vinyasa hatha ashtanga bikram mat poses classes flow
pilates: pilates reformer core mat classes studio
football: football soccer team club match matches league pitch striker goalkeeper
football-fan: fan supporter season ticket team club stadium premier league match watch
tennis: tennis racket racquet court serve wimbledon doubles singles lessons
badminton-squash: badminton squash shuttlecock racket court rally
golf: golf golfer golfing handicap clubs round tee putting
climbing: climbing climb climber bouldering boulder rope harness belay crag grade
martial-arts: martial arts karate judo taekwondo jiu-jitsu bjj kickboxing belt dojo sparring
boxing: boxing boxer gloves sparring punchbag bout
basketball: basketball nba hoop court team dunk
rugby: rugby scrum union league six nations
cricket: cricket batting bowling wicket innings bat
baseball: baseball mlb pitcher innings bat softball
skiing: skiing ski skis slopes snowboard snowboarding resort piste chalet
surfing: surfing surf surfer waves wetsuit bodyboarding
sailing: sailing sail boat yacht dinghy sailor kayaking canoeing rowing paddleboarding
rowing-kayak: rowing rower kayak kayaking canoe paddle paddleboard sup erg
triathlon: triathlon ironman triathlete transition swim bike
crossfit: crossfit wod hiit bootcamp circuit kettlebell
hiit-classes: hiit spin spinning class classes circuits bootcamp zumba aerobics
walking-exercise: walking walk steps stroll fitbit pedometer walked strolling
home-workout: home workout dumbbells kettlebell mat youtube peloton treadmill exercise-bike
exercise-general: exercise exercising active fitness fit workout training cardio
sports-injury: injury injured pulled hamstring calf tendon strain sidelined
team-sport: team league club training matches season captain coach
sports-coach: coach coaching coached trainer volunteer kids team
ice-skating: skating skate ice rink hockey skater
horse-sport: riding equestrian dressage eventing showjumping competition
running-shoes: shoes trainers running nike asics brooks hoka
fitness-goal: goal goals target lose strength stamina fitter
formula-one: f1 formula grand prix racing hamilton verstappen
# ---------------------------------------------------------------- devices and tech
phone-model: phone iphone android samsung galaxy pixel smartphone mobile handset oneplus xiaomi motorola
phone-upgrade: upgrade upgraded contract handset trade-in pro
phone-plan: plan contract sim carrier network data unlimited vodafone ee o2 verizon provider
phone-broken: cracked screen smashed broken dropped battery repair replaced
laptop: laptop macbook notebook chromebook thinkpad dell hp lenovo ultrabook
desktop-computer: desktop pc computer monitor imac mac
tablet: tablet ipad stylus galaxy-tab android-tablet ipads
smartwatch: smartwatch garmin fitbit wearable tracker strap whoop oura
e-reader: kindle ereader kobo ebook ebooks paperwhite paperback paperbacks books
headphones: headphones earbuds airpods earphones headset bose sony wireless bluetooth
tv: tv television telly oled smart-tv inch soundbar
speakers-audio: speaker speakers sonos soundbar stereo hifi amplifier audio
games-console: console playstation ps4 ps5 xbox nintendo controller
camera-gear: camera lens lenses dslr mirrorless tripod gopro
operating-system: windows macos linux ubuntu ios android chromeos os
software-tools: software app apps excel spreadsheet notion office
cloud-storage: cloud storage icloud dropbox onedrive backup backups
passwords: password passwords 1password lastpass bitwarden two-factor 2fa login
email-provider: email gmail outlook hotmail yahoo protonmail icloud inbox
printer: printer printing print ink cartridges scanner
tech-support: fix troubleshoot crash crashes bug error reset restart
smart-speaker: alexa echo siri speaker homepod nest-mini
drone: drone drones dji flying footage aerial
vr-headset: vr virtual-reality headset quest oculus vision-pro
3d-printer: printer 3d printing filament prints resin
ai-tools: chatgpt ai claude copilot gpt llm chatbot
programming-language: python javascript java typescript rust golang cpp ruby php kotlin swift
# ---------------------------------------------------------------- media
streaming-service: netflix disney prime hulu hbo streaming subscription paramount
music-streaming: spotify youtube-music tidal deezer playlist playlists
podcasts: podcast podcasts listening episode episodes host listen
audiobooks: audiobook audiobooks audible narrator listening narrated
tv-shows: show shows series episodes watching binge binged sitcom drama
films: film films movie movies cinema director watch
film-genre: horror comedy romcom thriller documentary documentaries action animated sci-fi
music-taste: music listen listening genre band artist singer albums
music-genre: rock pop jazz classical hip-hop rap metal indie folk electronic techno rnb punk blues
favourite-band: band artist singer fan album songs concert tour
concerts: concert concerts gig gigs festival festivals tickets tour glastonbury
festivals: festival festivals glastonbury coachella camping wristband lineup
news-source: news newspaper bbc guardian headlines journalism
magazines: magazine magazines subscription monthly vogue economist
social-media: social media instagram facebook twitter tiktok snapchat linkedin reddit followers
social-media-break: detox scrolling doomscrolling addicted deleted screen-time unplug offline hiatus
youtube-watching: youtube channel youtuber videos subscribe watching
author-favourite: author authors writer novelist wrote bestselling
comics-manga: comics comic manga anime graphic novels marvel dc
anime: anime manga studio ghibli crunchyroll series
reality-tv: reality contestant contestants strictly x-factor talent-show eurovision
sports-watching: watch watching match matches telly sky espn
radio: radio dj bbc presenter listening broadcast
theatre-going: theatre musical musicals broadway tickets matinee
# ---------------------------------------------------------------- travel
trip-planned: trip travelling travel booked visiting holiday itinerary flight flights flying
holiday: holiday holidays vacation getaway beach resort
flight: flight flights flying fly plane airport airline departure layover connecting booked
flight-details: seat aisle economy class boarding gate terminal
airline-loyalty: frequent flyer miles points avios lounge airline
visa: visa visas esta evisa application embassy consulate approved tourist entry permit
passport: passport passports expired expiry renew renewal renewed photo citizenship dual
favourite-places: destination destinations dream spot visited revisit paradise gem retreat getaway scenery
beach-holiday: beach seaside coast sun sunbathing island resort all-inclusive pool
city-break: city break citybreak mini-break sightseeing museums galleries landmarks
road-trip: road trip driving route miles campervan motorhome drive scenic
backpacking: backpacking backpacker hostel hostels interrail gap budget
cruise: cruise ship cabin ports deck liner
hotel: hotel hotels booked booking stay staying airbnb bnb hostel check-in
travel-insurance: travel insurance cover policy medical cancellation
jet-lag: jetlag jet-lag tired timezone adjust adjusting
travel-companion: solo alone companion companions travelling group tour
luggage: luggage suitcase bag bags carry-on baggage checked lost packing
train-travel: train trains rail railway eurostar sleeper journey station ticket railcard
countries-visited: countries visited travelled continents passport stamps
bucket-list: bucket list dream dreams someday wish
ski-trip: ski skiing trip chalet resort alps slopes
airport-transfer: airport taxi transfer pickup drop shuttle heathrow gatwick jfk
travel-sickness: travel sickness seasick carsick motion nausea
fear-of-flying: scared flying fear afraid phobia anxious nervous plane
immigration-status: citizen citizenship residency resident permanent settled status
expat: expat expatriate abroad overseas emigrated emigrate foreign
# ---------------------------------------------------------------- money
bank: bank banking account monzo revolut starling barclays hsbc lloyds natwest santander
savings: savings save saving saved isa emergency fund rainy nest-egg account interest
investments: invest investing investment investments stocks shares portfolio index funds etf broker vanguard
crypto: crypto cryptocurrency bitcoin ethereum btc eth coins wallet exchange blockchain
loan: loan loans borrow borrowed lender repay repayments interest apr
debt: debt debts owe owed overdraft arrears repay paying bankrupt
credit-card: credit card cards amex mastercard balance limit interest statement
credit-score: credit score rating experian equifax clearscore
budget: budget budgeting spending expenses track tracking ynab money frugal saving
bills: bills bill payments direct debit due utilities
insurance: insurance insured policy premium cover claim excess insurer renewal
life-insurance: life insurance cover policy beneficiary term critical illness
car-insurance: car insurance policy premium no-claims excess claim comprehensive
taxes: tax taxes hmrc irs self-assessment refund accountant deductible vat
income-financial: income earn earning salary household combined financial
financial-goal: goal saving deposit retire financial independence target
payday-loans: payday loan loans borrowed short-term lender quick cash high-interest
money-owed: owe owes lent borrowed repay money
charity-giving: donate donation donations charity giving cause tithe
pocket-money: pocket money allowance kids weekly chores
expenses-spending: spending spend spent splurge shopping expensive afford
cash-payments: cash card contactless pay paying cheque venmo paypal
shopping-habits: shopping shop online amazon buy bought purchases impulse
pension-savings: pension pot contributions retirement sipp employer
mortgage-rate: rate fixed variable tracker interest remortgage deal term fix expires svr
gambling: gambling gamble betting bets bookies casino poker lottery slots
lottery: lottery lotto ticket jackpot scratchcard draw
financial-advisor: financial adviser advisor planner wealth manager accountant
# ---------------------------------------------------------------- vehicles and transport
car: car drive driving vehicle motor hatchback saloon suv sedan
car-model: toyota ford volkswagen vw bmw audi mercedes honda nissan tesla kia hyundai volvo skoda vauxhall
electric-car: electric ev hybrid tesla charging charger battery plug-in
car-buying: buy bought buying purchase dealer dealership second-hand used finance lease pcp trade
car-selling: sell sold selling listing buyer part-exchange autotrader
car-repair: garage mechanic repair serviced mot breakdown tyres brakes engine clutch fault
car-accident: accident crash crashed collision bumped dent write-off insurance claim whiplash
driving-licence: licence license driving test theory lessons instructor passed provisional points
driving-lessons: lessons instructor learner test theory practical passed failed
parking: parking park parked spot permit car-park garage fine ticket meter
motorbike: motorbike motorcycle bike scooter moped honda yamaha ducati harley rider helmet cbt
bicycle: bike bicycle cycle e-bike ebike brompton gears puncture
public-transport: bus buses train tube metro subway tram underground oyster pass
car-share: carpool carpooling car-share lift lifts rides share blablacar passenger
taxi-rideshare: taxi uber lyft cab bolt ride driver
fuel: petrol diesel fuel tank fill mpg gas station prices
car-tax-mot: mot road tax insurance registration v5 logbook
caravan-motorhome: caravan motorhome campervan rv camper van
boat: boat yacht narrowboat canal dinghy moored mooring marina
van: van transit lorry truck hgv sprinter
speeding-fines: speeding ticket fine points penalty ban
# ---------------------------------------------------------------- languages
learning-language: learn learning language lessons duolingo tutor course studying vocabulary grammar practise
language-fluency: fluent fluency conversational basic intermediate advanced beginner level b1 b2 c1
native-language: native tongue language bilingual speak speaker
spanish: spanish espanol spain latin america castilian
chinese: chinese mandarin cantonese china characters pinyin
hindi-urdu: hindi urdu punjabi bengali gujarati tamil
sign-language: sign language bsl asl signing deaf
language-exam: delf dele jlpt hsk ielts toefl certificate exam level
language-names: spanish french german italian japanese chinese mandarin russian arabic portuguese korean hindi dutch polish greek turkish swedish
# ---------------------------------------------------------------- contact details and identity
phone-number: phone number mobile cell landline contact digits reach
email-address: email address gmail outlook hotmail inbox contact
home-address: address street avenue flat house number apartment
postcode: postcode zip zipcode postal code eircode
messenger-apps: whatsapp telegram signal messenger imessage wechat viber message text
username: username handle account profile login id
first-name: name named called call given full legal
last-name: surname maiden double-barrelled lastname patronymic hyphenated
nickname: nickname nick call called shortened diminutive
form-of-address: call address formal informal mr mrs ms miss dr sir madam title
birthday-date: birthday born birth date dob age
age: age old aged turning turned birthday
nationality: nationality citizen citizenship british american canadian australian irish passport
ethnicity-heritage: heritage ethnicity background descent roots origin mixed
religion: religion religious faith church mosque synagogue temple christian muslim jewish hindu buddhist atheist agnostic
church-attendance: church mass service sunday congregation parish vicar priest pastor
political-views: politics political vote voted voting labour conservative liberal tory democrat republican election
emergency-contact: emergency contact kin ice guardian notify
# ---------------------------------------------------------------- preferences for the assistant
answer-length: short shorter brief concise long longer detailed length answers responses replies verbose wordy
answer-format: bullet bullets points list lists table tables markdown format formatting paragraphs prose
answer-tone: tone formal informal casual friendly professional polite blunt direct jokes humour emoji emojis
units: units metric imperial celsius fahrenheit kilometres miles kilograms pounds feet metres
currency-preference: currency pounds dollars euros gbp usd eur prices
date-format: date dates format iso american british
language-preference: reply respond answer english language speak write translate
spelling-preference: spelling british american uk oxford colour color
code-style: code style tabs spaces indentation comments naming conventions lint formatter
reminders-pref: remind reminders notifications notify ping alerts
explanation-level: explain simple simply beginner expert technical jargon eli5 level detail
# ---------------------------------------------------------------- clothes and appearance
hair-colour: hair blonde blond brunette brown black ginger red grey gray dyed dye highlights colour
haircut: haircut hair cut trim fringe bangs bob pixie short long layers hairdresser barber salon
hair-style: hairstyle curly straight wavy braids dreadlocks locs ponytail bun afro perm
beard: beard moustache mustache shave shaved clean-shaven stubble goatee facial
tattoos: tattoo tattoos tattooed inked ink sleeve artist
piercings: piercing piercings pierced earrings nose septum ears lobe
clothes-size: size sizes small medium large xl xs waist inseam
shoe-size: shoe shoes size uk eu wide feet
clothing-style: style wardrobe clothes outfit outfits fashion wear casual smart dress
favourite-colour: colour color blue green red purple pink yellow orange black
jewellery: jewellery jewelry necklace ring bracelet earrings gold silver
makeup: makeup make-up foundation lipstick mascara eyeliner concealer
skincare: skincare moisturiser serum cleanser spf retinol routine
nails: nails manicure gel acrylic nail pedicure polish
fragrance: perfume cologne fragrance scent aftershave smell candles diffuser
eye-colour: eyes eye blue green brown hazel grey
complexion: skin tone pale fair olive tan freckles
body-shape: slim athletic curvy muscular petite stocky tall
shoes: shoes trainers sneakers boots heels sandals loafers
coat-outerwear: coat jacket parka raincoat puffer waterproof
# ---------------------------------------------------------------- documents
id-card: id identity card national licence photo
birth-certificate: birth certificate copy registered registry register
marriage-certificate: marriage certificate registry name deed poll
will-testament: testament lawyer solicitor executor estate probate wills inheritance beneficiary
power-of-attorney: power attorney lasting lpa legal decisions
residence-permit: residence permit brp visa card settled status indefinite leave
work-permit-docs: permit documents sponsorship certificate paperwork eligibility
tax-documents: p60 p45 w2 tax return payslips documents
medical-records: medical records notes history file gp
lease-agreement: lease tenancy agreement contract signed clause renewal break
contract-legal: contract signed clause terms agreement legal lawyer
legal-case: lawsuit court case sue sued suing lawyer solicitor claim tribunal hearing
police-matter: police crime reported stolen theft robbed burgled report
criminal-record: criminal record conviction convicted arrested caution dbs background
jury-duty: jury duty court summons juror trial
name-change: name change changed deed poll maiden married surname
# ---------------------------------------------------------------- subscriptions and memberships
subscriptions: subscription subscriptions subscribe subscribed cancel cancelled monthly annual renew
gym-membership: membership gym member monthly fee cancel joined puregym
club-membership: member membership club society association joined
meal-kit: meal kit hellofresh gousto chef box recipes
amazon-prime: amazon prime delivery membership prime-video subscription
news-subscription: subscription newspaper digital paywall guardian nyt
software-subscription: subscription licence office adobe microsoft annual
charity-membership: national trust rspb membership member donor
loyalty-cards: loyalty card points nectar clubcard rewards scheme
# ---------------------------------------------------------------- occasions and other everyday matters
christmas: christmas xmas tree presents santa eve boxing festive stocking dinner turkey
holidays-religious: easter ramadan eid diwali hanukkah passover lent thanksgiving
new-year: nye eve resolution resolutions fireworks countdown january hogmanay
gifts: gift gifts present presents wrapped wishlist voucher surprise
party-event: party parties host hosting guests invite invited celebration drinks
baby-shower: baby shower gender reveal christening naming
hen-stag: hen stag bachelor bachelorette party stag-do hen-do
goals-personal: goal goals resolution aim hoping achieve
environment: environment eco sustainable sustainability carbon footprint recycle plastic climate green
zero-waste: zero waste refill reusable packaging refillable
charity-work: charity fundraising fundraiser sponsored raise raised marathon donate
church-volunteer: church volunteer sunday school choir congregation
allotment: allotment plot grow vegetables shed council waiting
beekeeping: bees beekeeping hive hives honey beekeeper
weather-preference: weather hot cold sunny rain rainy summer winter snow heat
seasons: spring summer autumn fall winter season seasonal
noise-sensitivity: noise sensitive quiet loud earplugs misophonia sound
phobias: phobia fear scared afraid spiders heights needles flying
personality: introvert extrovert ambivert shy outgoing myers-briggs mbti
star-sign: star sign zodiac astrology horoscope aries taurus gemini leo virgo libra scorpio sagittarius capricorn aquarius pisces
handedness: left-handed right-handed lefty leftie ambidextrous hand writing
dream-job: dream career aspire ambition someday become
mentoring: mentor mentoring mentee mentored advice guidance
networking: networking linkedin connections events meetup contacts
side-project: side project app website building hobby open-source github
open-source: open-source github repository contributor maintainer pull request
home-country-visit: home visiting family country flight abroad
cleaning-products: detergent bleach products eco spray cleaner
storage-unit: storage unit rent boxes stuff self-storage
stationery: notebooks notebook pens pen stationery planner journal fountain
houseguests: guests staying visiting sofa bed spare room visitors
flowers: flowers bouquet roses tulips florist lilies peonies
candles-decor: candles decor decoration cushions rugs throws
art-collection: art prints paintings posters framed artwork collection
# ---------------------------------------------------------------- more work
on-call: on-call oncall pager rota callout standby incidents escalation
work-tools: slack jira confluence teams trello asana salesforce sharepoint github tools
lunch-break: lunch break canteen packed desk cafeteria midday sandwich microwave
company-car: company car allowance fleet mileage fuel-card vehicle
work-expenses: expenses expense claim receipts reimbursed reimbursement allowance per-diem
payday: payday paid wages salary paycheck monthly fortnightly payroll
sales-target: sales targets quota commission pipeline leads deals closing revenue
team-size: team headcount reports hires hiring grew staff members
job-tenure: joined tenure long-serving veteran decade anniversary stint
career-break: career break sabbatical gap time-off travelling unpaid returning
military: army navy raf military soldier veteran deployed regiment marines officer
police-fire-job: police officer constable firefighter fire brigade paramedic emergency services
civil-service: civil servant government council ministry department public sector
farming: farm farmer farming livestock cattle sheep crops tractor harvest dairy
creative-job: designer artist illustrator writer copywriter photographer musician actor freelance
finance-job: accountant banker analyst trader auditor finance investment bookkeeper actuary
care-work: carer care worker nursing residential shifts domiciliary caring
cleaner-job: cleaning cleaner janitor caretaker housekeeping custodian shifts
# ---------------------------------------------------------------- more home
appliances: fridge freezer washing-machine oven dishwasher microwave kettle toaster appliance appliances
flooring: carpet carpets flooring laminate wooden floorboards tiles rug vinyl
curtains-blinds: curtains blinds shutters windows glazing double-glazing
roof-leak: roof leak leaking gutter gutters tiles roofer ceiling drip
windows-doors: windows doors door window glazing frames draughty draught locks
shed-outbuilding: shed summerhouse greenhouse garden-room workshop outbuilding cabin
conservatory: conservatory orangery extension sunroom lean-to garden-room
hot-tub-pool: hot-tub jacuzzi pool sauna spa steam
boundary-dispute: fence boundary hedge dispute tree overhanging neighbour wall
second-home: holiday home cottage villa timeshare caravan abroad buy-to-let
buy-to-let: buy-to-let tenants rental property landlord letting portfolio
lodger: lodger spare room rent-a-room tenant lodging
spare-room: spare room guest study nursery boxroom
home-lighting: lights lighting lamps bulbs led dimmer
kitchen: kitchen cooker hob oven cupboards island fridge pantry
garden-wildlife: birds feeder hedgehog foxes squirrels bird-feeder wildlife pond
lawn-care: lawn mower mowing grass strimmer hedge trimming
plumbing: plumbing pipe pipes blocked drain leak tap toilet plumber
electrics: electrics wiring fuse fuses socket sockets electrician rewire
# ---------------------------------------------------------------- more family
parents-divorced: parents divorced separated remarried stepmother stepfather custody
sibling-relationship: siblings sibling rivalry estranged brother sister bond squabble
family-holiday: family holiday kids trip half-term summer caravan
kids-birthday-party: party birthday kids entertainer invitations party-bags cake
kid-bedtime: bedtime kids story routine settle asleep bath cot
kid-screen-time: screen ipad tablet tv limits youtube gaming kids
school-choice: catchment admissions school primary secondary private state grammar ofsted
baby-sleep: baby sleep night feeds waking sleeping nap cot regression
teething: teething teeth teether drooling calpol baby
potty-training: potty training toilet nappies pull-ups accidents toddler
empty-nest: empty nest nester kids moved university grown-up
kid-university: son daughter university uni freshers moving halls student
child-age: age old turns turning birthday aged
pregnancy-due-date: due date born arrival baby trimester
family-chat: family group chat whatsapp messages call sunday
postnatal: postnatal postpartum depression recovery maternity health-visitor
# ---------------------------------------------------------------- more health
gout: gout uric flare toe joint allopurinol
shingles-chickenpox: shingles chickenpox measles mumps rash virus
appendix-tonsils: appendicitis appendix tonsils tonsillectomy removed operation
sinus: sinus sinusitis sinuses congestion blocked nasal spray polyps
vertigo-dizziness: vertigo dizzy dizziness lightheaded fainting fainted balance
cold-sores: cold sore sores herpes warts verruca fungal
dandruff-scalp: dandruff scalp itchy flaky flakes shampoo seborrheic
stress: stress stressed stressful pressure overwhelmed tense cortisol
eating-disorder: eating disorder anorexia bulimia binge recovery relapse
self-harm: self-harm suicidal crisis samaritans hotline harm
ocd-ptsd: ocd ptsd trauma flashbacks compulsions intrusive
bipolar: bipolar manic mania lithium mood stabiliser episodes
acupuncture-massage: acupuncture massage reflexology osteopath therapist needles
blood-type: blood type group negative positive o-negative rhesus
blood-donation: donate donation blood donor plasma session
organ-donor: organ donor donation register transplant kidney
sleeping-pills: sleeping pills zopiclone melatonin sedative tablets
nhs-app: nhs app gp online booking portal patient
bruises: bruise bruised bruising swelling bump knocked bumped
tendonitis: tendonitis tendon tennis elbow inflammation rsi
posture-ergonomics: posture ergonomic standing desk chair back neck screen
mobility-aids: walker crutches cane rollator stairlift grab rails mobility
dementia-care: dementia alzheimers memory confused forgetful care diagnosis
incontinence-bladder: bladder incontinence overactive prostate urinating frequent pelvic
cosmetic-procedures: botox fillers cosmetic surgery lip nose rhinoplasty implants
teeth-whitening: whitening veneers implant implants dentures teeth
# ---------------------------------------------------------------- more food
ice-cream-dessert: dessert desserts ice-cream pudding cake cheesecake sweet
fruit-favourite: fruit apples bananas strawberries mango grapes berries oranges
nuts-seeds: nuts almonds cashews walnuts peanuts seeds pistachios
rice-noodles: rice noodles risotto pilaf fried biryani
soup: soup soups broth stew stews ramen pho
curry: curry curries tikka masala korma vindaloo dal spicy
sandwich: sandwich sandwiches sarnie baguette panini wrap sub
steak-doneness: steak rare medium well-done doneness cooked
salt-sugar: salt salty sodium sugar sugary reduce
milk-preference: milk oat soy almond skimmed semi-skimmed whole dairy
energy-drinks: energy drinks monster redbull caffeine cans
kombucha-fermented: kombucha kefir fermented sauerkraut kimchi probiotic
meal-times: dinner lunch breakfast supper mealtime mealtimes
family-cooking: cook cooking family kids dinners meals fussy
# ---------------------------------------------------------------- more hobbies and sport
jewellery-making: jewellery beads beading silversmith rings necklaces resin
scrapbooking: scrapbook scrapbooking journaling stickers cards papercraft
cosplay: cosplay costume convention comic-con cosplayer anime
escape-rooms: escape room rooms puzzles team puzzle locked clues
pub-quiz: pub quiz quizzing trivia team quiz-night
bowling-darts: bowling darts snooker pool billiards skittles
table-tennis: table-tennis ping-pong pingpong paddle bat club table
volleyball-netball: volleyball netball handball beach team court league
american-football: nfl super bowl quarterback touchdown american
hockey: hockey field ice stick puck team
gymnastics: gymnastics gymnast trampoline trampolining tumbling cheerleading
skateboarding: skateboard skateboarding skater skatepark scooter ramp bmx
archery-fencing: archery fencing bow arrows sabre foil epee
scuba: scuba diving diver padi dive snorkelling reef
kitesurfing-windsurfing: kitesurfing windsurfing kite wind sailing wingfoil
skydiving: skydiving parachute parachuting paragliding bungee jump
karting-motorsport: karting go-kart motorsport racing track laps
frisbee: frisbee ultimate disc team league throwing
film-making: filmmaking film camera editing premiere directing screenplay
poetry: poetry poems poet verse haiku spoken-word slam
opera-ballet: opera ballet symphony philharmonic orchestra concert-hall
k-pop: kpop k-pop bts blackpink idol fandom
true-crime: true-crime crime murder podcast documentary serial killer
currently-reading: reading book halfway chapter novel reread
currently-watching: watching series season episode binge-watching show
music-instrument-general: instrument instruments musical musician practising lessons
# ---------------------------------------------------------------- more devices
phone-case: case cover screen-protector popsocket charger cable
charger-power: charger charging cable usb-c lightning battery
keyboard-mouse: keyboard mouse mechanical trackpad wireless ergonomic
monitor-screen: monitor monitors ultrawide display 4k inch screen
webcam-mic: webcam microphone mic camera streaming headset
hard-drive: hard ssd external backup storage nas
browser: browser chrome firefox safari edge brave extensions tabs
vpn-antivirus: vpn antivirus norton mcafee nordvpn malware
computer-specs: ram processor cpu gpu ssd storage specs memory
fire-stick: firestick roku chromecast streaming stick dongle
# ---------------------------------------------------------------- more travel
staycation: staycation cornwall lake-district cottage uk domestic
ferry: ferry crossing port sailing channel ferries
car-rental: hire rental rent car-hire hertz avis enterprise
travel-vaccines: travel vaccinations yellow-fever typhoid malaria tablets hepatitis
currency-exchange: currency exchange euros dollars cash travel-money abroad
roaming: roaming esim sim abroad data charges
global-entry: global entry tsa precheck esta fast-track
digital-nomad: digital nomad remote travelling laptop coworking abroad
holiday-dates: dates booked leaving returning fly departure
# ---------------------------------------------------------------- more money
bnpl: klarna clearpay afterpay instalments paylater bnpl
scam-fraud: scam scammed fraud fraudulent phishing stolen identity hacked bank
international-transfer: transfer wise remittance abroad money paypal
benefits-welfare: benefits universal credit welfare allowance pip child-benefit dwp
mortgage-overpayment: overpay overpayment overpaying mortgage early paid-off
savings-goal: saving target goal deposit fund holiday emergency
rental-income: rental income tenants rent property landlord
stock-options: stock options rsu vesting shares equity esop
# ---------------------------------------------------------------- more vehicles
car-colour: colour silver black white red blue grey paint car
car-mileage: mileage miles odometer high-mileage clocked speedometer
car-cleaning: wash valet cleaning car-wash polish hoover
winter-driving: winter tyres snow ice chains de-icer scraper
dashcam-satnav: dashcam sat-nav satnav gps navigation maps waze
e-scooter: e-scooter scooter electric lime rental voi
bike-theft: stolen bike lock thief theft shed
bike-commute: cycle commute commuting bike lane cyclescheme
nervous-driver: nervous driver confident anxious motorway roundabouts driving
# ---------------------------------------------------------------- more contact, preferences, looks, documents, misc
website-social: website portfolio linkedin instagram handle profile site
delivery-address: delivery address parcel deliver safe-place neighbour locker
time-format: 24-hour 12-hour clock format military hours
recipe-units: cups grams ounces tablespoons teaspoons measurements recipes
accessibility-needs: accessibility screen-reader large text font dyslexia dyslexic colourblind
underwear-size: bra size cup band underwear lingerie
jeans-trousers: jeans trousers pants chinos shorts waist
handbag-wallet: handbag bag purse wallet backpack rucksack tote
hats-accessories: hat cap beanie scarf gloves sunglasses
eyebrows-lashes: eyebrows brows lashes lash extensions microblading threading
grey-hair: grey gray greying silver hair dye roots
national-insurance: national insurance ni number ssn tax-id
nhs-number: nhs number patient hospital medical id
student-card: student card id union nus discount
warranty-receipts: warranty guarantee receipt receipts returns refund
passport-number: passport number expiry issued expires validity
activism: protest protests activist activism campaign petition rally
military-service: served service army veteran conscription national-service
citizenship-ceremony: citizenship naturalisation naturalised ceremony applied citizen
community-group: community group association committee residents volunteer club
superstitions: superstitious superstition lucky unlucky charm jinx horseshoe
funeral-wishes: funeral cremated buried wishes ashes plot
digital-legacy: legacy digital accounts passwords death executor
life-coach: coach coaching life-coach goals sessions mentor
# ---------------------------------------------------------------- choices among kinds
medication-names: sertraline fluoxetine citalopram metformin levothyroxine amlodipine ramipril omeprazole atorvastatin statin insulin propranolol prednisolone gabapentin dose dosage mg prescription tablets pills
instrument-played: piano guitar violin cello drums flute clarinet saxophone trumpet ukulele harp keyboard trombone viola banjo harmonica accordion bass instrument
racket-sports: tennis badminton squash padel pickleball table-tennis racket racquet court doubles
team-sports-played: football rugby basketball hockey netball volleyball cricket baseball handball softball lacrosse league
pet-kinds: dog cat rabbit hamster guinea parrot budgie tortoise snake lizard ferret goldfish pet pets puppy kitten
living-alone: alone live living flatmate flatmates roommate roommates housemate housemates lodger household independently
`
